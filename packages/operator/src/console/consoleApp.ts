import { readFileSync } from 'node:fs';
import { parseCookie, stringifySetCookie } from 'cookie';
import express, { type NextFunction, type Request, type Response } from 'express';
import { AllowanceChoiceError, OperatorError, type OperatorErrorCode } from '@quotes/accounts';
import { consoleAssets, publicAsset } from './consoleAssets.js';
import type { ConsoleContext } from './consoleContext.js';
import { allowedHost, consoleHeaders } from './consoleSecurity.js';
import { type ConsoleSession, ConsoleSessions, sessionLifetimeMs } from './consoleSessions.js';
import { auditPage, keyAuditPageOf } from './pages/auditPage.js';
import { corpusPage } from './pages/corpusPage.js';
import { type ActionArguments, actionInputOf, allowanceFields, keyActions } from './pages/keyActions.js';
import { confirmPage, keyPage, rolledPage } from './pages/keyPage.js';
import { keysPage } from './pages/keysPage.js';
import { consolePage, notice } from './pages/layout.js';
import { overviewPage } from './pages/overviewPage.js';
import { type DecisionInput, requestDecisions, requestPage } from './pages/requestPage.js';
import { signInPage } from './pages/signInPage.js';

export const sessionCookie = 'quotes_console';

/** An action's refusal in the console's words: a plan rule names the form's fields. */
function refusalWords(error: OperatorError): string {
  return error instanceof AllowanceChoiceError ? error.in(allowanceFields) : error.message;
}

type SessionRequest = Request & { session?: ConsoleSession };

/** The console's answer to each kind of operator refusal (operatorError.ts): its status and page title. */
const statusOf: Record<OperatorErrorCode, number> = {
  invalid: 400,
  'not-found': 404,
  conflict: 409,
  refused: 403,
  failed: 500,
};
const titleOf: Record<OperatorErrorCode, string> = {
  invalid: 'Refused',
  'not-found': 'Not found',
  conflict: 'Conflict',
  refused: 'Refused',
  failed: 'Not done',
};

const cookieOf = (request: Request) => parseCookie(request.headers.cookie ?? '')[sessionCookie];
const keyId = /^k_[A-Za-z0-9]{1,64}$/;
const requestId = /^r_[A-Za-z0-9]{1,64}$/;

/**
 * The console's routes. Everything but the sign-in link and the stylesheet needs a session;
 * every POST needs the session's CSRF token; every change goes through the operator API.
 */
export function consoleApp(
  context: ConsoleContext,
  sessions: ConsoleSessions,
  bound: { host: string; port: number },
  log: (line: string) => void,
): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const hostAllowed = allowedHost(bound.host, bound.port);
  const assets = new Map(
    [...consoleAssets()].map(([name, asset]) => [name, { ...asset, body: readFileSync(asset.path) }]),
  );

  app.use((request, response, next) => {
    if (hostAllowed(request.headers.host)) return next();
    response.status(421).type('text/plain').send('This console answers only to the address it is bound to.\n');
  });
  app.use(consoleHeaders);

  const html = (response: Response, status: number, page: string) => response.status(status).type('html').send(page);

  app.get('/sign-in', async (request, response, next) => {
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    let signedIn: Awaited<ReturnType<ConsoleSessions['signIn']>>;
    try {
      signedIn = await sessions.signIn(token);
    } catch (error) {
      return next(error);
    }
    if (!signedIn) return html(response, 403, signInPage('used'));
    response.setHeader(
      'Set-Cookie',
      stringifySetCookie({
        name: sessionCookie,
        value: signedIn.cookie,
        httpOnly: true,
        sameSite: 'strict',
        path: '/',
        maxAge: sessionLifetimeMs / 1000,
      }),
    );
    log(`console: session console:${signedIn.session.label} signed in`);
    response.redirect(303, '/');
  });

  app.get('/assets/:name', (request, response, next) => {
    const asset = assets.get(request.params.name);
    if (!asset) return next();
    if (request.params.name !== publicAsset && !sessions.find(cookieOf(request)))
      return response.status(401).type('text/plain').send('Sign in first.\n');
    response.type(asset.type).send(asset.body);
  });

  app.use((request: SessionRequest, response, next) => {
    const session = sessions.find(cookieOf(request));
    if (!session) return html(response, 401, signInPage(cookieOf(request) ? 'expired' : 'none'));
    request.session = session;
    next();
  });

  app.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }));
  app.use((request: SessionRequest, response, next) => {
    if (request.method !== 'POST') return next();
    if (ConsoleSessions.csrfMatches(request.session!, (request.body as Record<string, unknown> | undefined)?._csrf))
      return next();
    html(
      response,
      403,
      consolePage(
        'Refused',
        request.session!,
        notice(
          'error',
          'This form did not come from this session of the console (its CSRF token is missing or wrong). Open the page again.',
        ),
      ),
    );
  });

  const page =
    (
      render: (request: SessionRequest, session: ConsoleSession) => Promise<{ status: number; page: string } | string>,
    ) =>
    async (request: SessionRequest, response: Response, next: NextFunction) => {
      try {
        const result = await render(request, request.session!);
        if (typeof result === 'string') html(response, 200, result);
        else html(response, result.status, result.page);
      } catch (error) {
        next(error);
      }
    };

  app.get(
    '/',
    page((_request, session) => overviewPage(context, session)),
  );
  app.get(
    '/keys',
    page((request, session) => keysPage(context, session, request.query as Record<string, unknown>)),
  );
  app.get(
    '/keys/:id',
    page((request, session) =>
      keyPage(
        context,
        session,
        String(request.params.id),
        typeof request.query.done === 'string' ? request.query.done : undefined,
      ),
    ),
  );
  app.get(
    '/keys/:id/audit',
    page((request, session) =>
      keyAuditPageOf(context, session, String(request.params.id), request.query as Record<string, unknown>),
    ),
  );
  app.get(
    '/keys/:id/confirm/:action',
    page(async (request, session) => {
      const name = String(request.params.action);
      const action = keyActions[name];
      if (!action) return { status: 404, page: consolePage('Not found', session, notice('error', 'No such action.')) };
      const key = await context.operator(session).showKey(String(request.params.id));
      const input = actionInputOf(request.query as Record<string, unknown>);
      try {
        return confirmPage(session, key, name, input, { args: action.read(input) });
      } catch (error) {
        if (!(error instanceof OperatorError)) throw error;
        return {
          status: statusOf[error.code],
          page: confirmPage(session, key, name, input, { error: refusalWords(error) }),
        };
      }
    }),
  );
  app.post('/keys/:id/actions/:action', async (request: SessionRequest, response, next) => {
    const session = request.session!;
    const name = String(request.params.action);
    const action = keyActions[name];
    const id = String(request.params.id);
    if (!action || !keyId.test(id))
      return html(response, 404, consolePage('Not found', session, notice('error', 'No such action.')));
    const input = actionInputOf(request.body as Record<string, unknown>);
    // A revocation takes its reason itself (it is kept on the key too); the others record it in the audit only.
    const operator = context.operator(session, name === 'revoke' ? null : input.reason);
    try {
      const key = await operator.showKey(id);
      let args: ActionArguments | undefined;
      try {
        // Read again: what was confirmed is checked by the same rules as what was asked.
        args = action.read(input);
        const { issued } = await action.run(operator, key, args, input, context.mail);
        log(`console: console:${session.label} ${name} ${id}`);
        if (issued) return html(response, 200, rolledPage(session, issued));
        response.redirect(303, `/keys/${encodeURIComponent(id)}?done=${name}`);
      } catch (error) {
        if (!(error instanceof OperatorError)) throw error;
        html(
          response,
          statusOf[error.code],
          confirmPage(session, key, name, input, { args, error: refusalWords(error) }),
        );
      }
    } catch (error) {
      next(error);
    }
  });
  app.get(
    '/requests/:id',
    page(async (request, session) =>
      requestPage(session, await context.keyRequestsView(session).show(String(request.params.id)), {
        done: typeof request.query.done === 'string' ? request.query.done : undefined,
      }),
    ),
  );
  app.post('/requests/:id/:decision', async (request: SessionRequest, response, next) => {
    const session = request.session!;
    const id = String(request.params.id);
    const decision = String(request.params.decision);
    if (!requestId.test(id) || !(decision in requestDecisions))
      return html(response, 404, consolePage('Not found', session, notice('error', 'No such action.')));
    const body = (request.body ?? {}) as Record<string, unknown>;
    const text = (name: string) => (typeof body[name] === 'string' ? body[name] : undefined);
    const input: DecisionInput = {
      plan: text('plan'),
      monthlyCalls: text('monthlyCalls'),
      unlimited: text('unlimited'),
      category: text('category'),
      reason: text('reason'),
    };
    try {
      try {
        // The service the CLI's `requests approve --send` and `requests reject` use: same rules, mail and audit.
        const service = context.keyRequests(session);
        if (decision === 'approve')
          await service.approve(id, {
            plan: input.plan,
            monthlyCalls: input.monthlyCalls,
            unlimited: input.unlimited !== undefined,
            send: true,
          });
        else await service.reject(id, { category: input.category ?? '', reason: input.reason });
        log(`console: console:${session.label} requests ${decision} ${id}`);
        response.redirect(303, `/requests/${encodeURIComponent(id)}?done=${decision}`);
      } catch (error) {
        if (!(error instanceof OperatorError)) throw error;
        const shown = await context.keyRequestsView(session).show(id);
        html(response, statusOf[error.code], requestPage(session, shown, { error: refusalWords(error), input }));
      }
    } catch (error) {
      next(error);
    }
  });
  app.get(
    '/audit',
    page((request, session) => auditPage(context, session, request.query.page)),
  );
  app.get(
    '/corpus',
    page((_request, session) => corpusPage(context, session)),
  );
  app.post('/sign-out', (request: SessionRequest, response) => {
    const cookie = cookieOf(request);
    if (cookie) sessions.signOut(cookie);
    response.setHeader(
      'Set-Cookie',
      stringifySetCookie({ name: sessionCookie, value: '', httpOnly: true, sameSite: 'strict', path: '/', maxAge: 0 }),
    );
    html(response, 200, signInPage('expired'));
  });

  app.use((request: SessionRequest, response) => {
    html(response, 404, consolePage('Not found', request.session ?? null, notice('error', 'No such page.')));
  });
  app.use((error: unknown, request: SessionRequest, response: Response, _next: NextFunction) => {
    if (error instanceof OperatorError)
      return html(
        response,
        statusOf[error.code],
        consolePage(titleOf[error.code], request.session ?? null, notice('error', error.message)),
      );
    // The body parser's refusals (too large, too many fields, malformed) carry their 4xx status.
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500)
      return html(
        response,
        status,
        consolePage('Refused', request.session ?? null, notice('error', 'The form could not be read.')),
      );
    log(`console: error: ${error instanceof Error ? error.message : String(error)}`);
    html(
      response,
      500,
      consolePage(
        'Error',
        request.session ?? null,
        notice('error', 'The console failed to answer; its terminal says why.'),
      ),
    );
  });
  return app;
}
