import { parseCookie, stringifySetCookie } from 'cookie';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import {
  type HolderKeys,
  type HolderSession,
  type HolderSignIn,
  holderSessionLifetimeMs,
  OperatorError,
  type OperatorErrorCode,
  type ProofOfWork,
  signInValidMinutes,
  TooManyActions,
} from '@quotes/accounts';
import {
  clientAddressReader,
  newSecret,
  pageSecurityHeaders,
  postedFromOwnSite,
  sameSecret,
} from '@quotes/service-base';
import { proofRefusalWords } from '@quotes/text-rules';
import { accountStyles } from './accountLayout.js';
import { keyPageParts } from './keyFigures.js';
import { keyPage, keysPage, rolledPage } from './keyPages.js';
import {
  linkInvalidPage,
  linkSentPage,
  refusedPage,
  signedOutPage,
  signInButtonPage,
  signInFormPage,
} from './signInPages.js';

export const sessionCookie = 'quotes_account';
/** The pre-session forms' CSRF token (double-submit: the cookie and the form field must match). */
export const formCookie = 'quotes_account_form';
export const maxFormBytes = 24 * 1024;

const statusOf: Record<OperatorErrorCode, number> = {
  invalid: 400,
  'not-found': 404,
  conflict: 409,
  refused: 403,
  failed: 500,
};

/** A refusal's status; a bound reached answers 429 and says when to come back (Retry-After). */
function refusalStatus(error: OperatorError, response: Response): number {
  if (!(error instanceof TooManyActions)) return statusOf[error.code];
  response.setHeader('Retry-After', String(error.retryAfterSeconds));
  return 429;
}

type SessionRequest = Request & { holder?: HolderSession; cookieValue?: string };

const tokenOf = (value: unknown) => (typeof value === 'string' && /^[A-Za-z0-9_-]{20,64}$/.test(value) ? value : '');
// The service parses no query strings itself (its app leaves request.query empty): read from the URL.
const queryValue = (request: Request, name: string) => new URL(request.originalUrl, 'http://x').searchParams.get(name);
const field = (body: unknown, name: string): unknown => (body as Record<string, unknown> | undefined)?.[name];

/** The services the pages stand on, and where they are served from. */
export interface AccountRouterOptions {
  readonly signIn: HolderSignIn;
  readonly keys: HolderKeys;
  /** The proof of work the sign-in form asks for while the service is busy (the key request form's rule). */
  readonly proof: ProofOfWork;
  /** PUBLIC_BASE_URL (else the listening address): https there makes every cookie Secure. */
  readonly publicBaseUrl: () => string;
  readonly trustProxy?: readonly string[];
  readonly clock: () => Date;
}

/**
 * The holders' page, mounted at /account: everything but the sign-in needs a session (in the
 * database, so any server answers), every POST a CSRF token, every page the signed-in pages'
 * headers (CSP without inline script, no framing, no referrer, no caching).
 */
export function accountRouter(options: AccountRouterOptions): Router {
  const { signIn, keys, proof } = options;
  const router = Router();
  const clientAddress = clientAddressReader(options.trustProxy);
  const secure = () => options.publicBaseUrl().startsWith('https:');
  // Whether the pages are served over https is known once the server listens: both sets ready.
  const headers = { plain: pageSecurityHeaders(), https: pageSecurityHeaders({ https: true }) };
  router.use((request, response, next) => {
    const [first, second] = headers[secure() ? 'https' : 'plain'];
    first!(request, response, (error?: unknown) => (error ? next(error) : second!(request, response, next)));
  });

  const send = (response: Response, status: number, page: string) => response.status(status).type('html').send(page);
  // Over https the cookies are `__Host-` ones (Secure, for the whole host, no Domain), which no
  // other host or plain-HTTP page can set over them; on plain HTTP (loopback) they keep to /account.
  const cookieName = (name: string) => (secure() ? `__Host-${name}` : name);
  const cookies = (request: Request) => {
    const sent = parseCookie(request.headers.cookie ?? '');
    return (name: string) => sent[cookieName(name)];
  };
  const setCookie = (response: Response, name: string, value: string, maxAgeSeconds: number) =>
    response.append(
      'Set-Cookie',
      stringifySetCookie({
        name: cookieName(name),
        value,
        httpOnly: true,
        sameSite: 'strict',
        secure: secure(),
        path: secure() ? '/' : '/account',
        maxAge: maxAgeSeconds,
      }),
    );
  /** The pre-session form token: the cookie's, or a new one set now. */
  const formToken = (request: Request, response: Response) => {
    const existing = cookies(request)(formCookie);
    if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
    const token = newSecret();
    setCookie(response, formCookie, token, 3600);
    return token;
  };
  const formTokenMatches = (request: Request) => {
    const expected = cookies(request)(formCookie);
    const given = field(request.body, '_csrf');
    return typeof expected === 'string' && typeof given === 'string' && sameSecret(given, expected);
  };

  router.get('/page.css', (_request, response) => {
    response.type('text/css').setHeader('Cache-Control', 'public, max-age=3600');
    response.send(accountStyles);
  });

  /** A signed-out form without its CSRF token: 403, and what to open again (`page` or `link`). */
  const refuseForeignForm = (response: Response, openAgain: 'page' | 'link') =>
    send(
      response,
      403,
      refusedPage(
        'Refused',
        `This form did not come from this page (its CSRF token is missing or wrong). Open the ${openAgain} again.`,
        'signed-out',
      ),
    );

  const parse = express.urlencoded({ extended: false, limit: maxFormBytes, parameterLimit: 20 });

  // Every POST comes from these pages (the key pages' rule): another site's page, another port
  // of this host among them, can neither act for a holder nor sign a visitor in to its session.
  router.use((request, response, next) => {
    if (request.method !== 'POST' || postedFromOwnSite(request, new URL(options.publicBaseUrl()).origin)) return next();
    send(
      response,
      403,
      refusedPage(
        'Refused',
        'This form came from another site. Open this page at its own address and try again.',
        'signed-out',
      ),
    );
  });

  router.post('/sign-in-link', parse, async (request, response, next) => {
    try {
      if (!formTokenMatches(request)) return refuseForeignForm(response, 'page');
      const email = field(request.body, 'email');
      const address = clientAddress(request);
      if (address === '') return send(response, 400, refusedPage('Refused', 'The connection closed.', 'signed-out'));
      // While the service is busy, no link is asked for (nor mailed) without a proof of work.
      const proven = await proof.check(field(request.body, 'altcha'));
      if (proven.outcome === 'refused') {
        response.setHeader('Retry-After', String(proven.asked.untilQuieterSeconds ?? 3600));
        return send(
          response,
          429,
          signInFormPage(formToken(request, response), undefined, {
            ...proven.asked,
            refusal: proofRefusalWords(proven.reason, proven.asked, 'link'),
          }),
        );
      }
      try {
        const admission = await signIn.requestSignIn(typeof email === 'string' ? email : '', address);
        if (!admission.admitted) {
          response.setHeader('Retry-After', String(admission.retryAfterSeconds));
          const minutes = Math.ceil(admission.retryAfterSeconds / 60);
          const wait = `try again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
          return send(
            response,
            429,
            admission.by === 'mail'
              ? refusedPage(
                  'Too many links mailed',
                  `The service has sent all the links it mails to unproven addresses this hour, so nothing was mailed; ${wait}.`,
                  'signed-out',
                )
              : refusedPage(
                  'Too many sign-in links',
                  `Too many sign-in links were asked for from here or for this address in the last hour; ${wait}.`,
                  'signed-out',
                ),
          );
        }
      } catch (error) {
        if (!(error instanceof OperatorError)) throw error;
        return send(
          response,
          400,
          signInFormPage(
            formToken(request, response),
            { message: error.message, email: typeof email === 'string' ? email.slice(0, 254) : '' },
            await proof.asked(),
          ),
        );
      }
      send(response, 202, linkSentPage(signInValidMinutes));
    } catch (error) {
      next(error);
    }
  });

  // A link opened (or fetched by a mail scanner): a page with a button; the link is used by the POST only.
  router.get('/sign-in', async (request, response, next) => {
    try {
      const token = tokenOf(queryValue(request, 'token'));
      if (token === '' || !(await signIn.linkLive(token))) return send(response, 404, linkInvalidPage());
      send(response, 200, signInButtonPage(token, formToken(request, response)));
    } catch (error) {
      next(error);
    }
  });

  router.post('/sign-in', parse, async (request, response, next) => {
    try {
      if (!formTokenMatches(request)) return refuseForeignForm(response, 'link');
      const token = tokenOf(field(request.body, 'token'));
      const signedIn = token === '' ? undefined : await signIn.signIn(token);
      if (!signedIn) return send(response, 404, linkInvalidPage());
      setCookie(response, sessionCookie, signedIn.cookie, holderSessionLifetimeMs / 1000);
      response.redirect(303, '/account');
    } catch (error) {
      next(error);
    }
  });

  // Every other page: a live session, or the sign-in form (the session ended: said so).
  router.use(async (request: SessionRequest, response, next) => {
    try {
      const cookie = cookies(request)(sessionCookie);
      const holder = await signIn.session(cookie);
      if (holder) {
        request.holder = holder;
        request.cookieValue = cookie;
        return next();
      }
      if (request.method === 'GET' && request.path === '/' && !cookie)
        return send(response, 200, signInFormPage(formToken(request, response), undefined, await proof.asked()));
      if (request.method === 'GET' && request.path === '/')
        return send(
          response,
          200,
          signInFormPage(
            formToken(request, response),
            { message: 'Your session ended: sign in again.' },
            await proof.asked(),
          ),
        );
      send(response, 401, signedOutPage('expired'));
    } catch (error) {
      next(error);
    }
  });

  router.use(parse);
  router.use((request: SessionRequest, response, next) => {
    if (request.method !== 'POST') return next();
    const given = field(request.body, '_csrf');
    if (typeof given === 'string' && sameSecret(given, request.holder!.csrfToken)) return next();
    send(
      response,
      403,
      refusedPage(
        'Refused',
        'This form did not come from your session (its CSRF token is missing or wrong). Open the page again.',
        'signed-in',
        request.holder!.csrfToken,
      ),
    );
  });

  const signed = (request: SessionRequest) => ({ csrfToken: request.holder!.csrfToken });
  const handle =
    (work: (request: SessionRequest, response: Response) => Promise<void>) =>
    async (request: SessionRequest, response: Response, next: NextFunction) => {
      try {
        await work(request, response);
      } catch (error) {
        next(error);
      }
    };

  router.get(
    '/',
    handle(async (request, response) => {
      const holder = request.holder!;
      const [held, requests] = await Promise.all([keys.keys(holder), keys.requests(holder)]);
      send(response, 200, keysPage(signed(request), held, requests));
    }),
  );

  /** The key page, with a refusal beside the form that caused it when there is one. */
  async function showKey(
    request: SessionRequest,
    response: Response,
    status: number,
    extra: { done?: string; problem?: { form: string; message: string }; values?: Record<string, string> } = {},
  ) {
    const holder = request.holder!;
    const id = String(request.params.id);
    const key = await keys.key(holder, id);
    const parts = await keyPageParts(keys, holder, key, options.clock());
    send(response, status, keyPage(signed(request), key, { ...parts, ...extra }));
  }

  router.get(
    '/keys/:id',
    handle(async (request, response) => {
      const done = queryValue(request, 'done') ?? undefined;
      await showKey(request, response, 200, { done });
    }),
  );

  /** A key action: done, then back to the key page (303); refused, the key page with the reason beside the form. */
  const action = (
    form: string,
    run: (request: SessionRequest, response: Response) => Promise<boolean>,
    values: (body: unknown) => Record<string, string> = () => ({}),
  ) =>
    handle(async (request, response) => {
      try {
        if (await run(request, response))
          response.redirect(303, `/account/keys/${encodeURIComponent(String(request.params.id))}?done=${form}`);
      } catch (error) {
        if (!(error instanceof OperatorError) || error.code === 'not-found' || error.code === 'failed') throw error;
        await showKey(request, response, refusalStatus(error, response), {
          problem: { form, message: error.message },
          values: values(request.body),
        });
      }
    });

  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 20_000) : '');

  router.post(
    '/keys/:id/roll',
    action('roll', async (request, response) => {
      const issued = await keys.roll(request.holder!, String(request.params.id), field(request.body, 'grace'));
      send(response, 200, rolledPage(signed(request), issued));
      return false;
    }),
  );
  router.post(
    '/keys/:id/origins',
    action(
      'origins',
      async (request) => {
        await keys.setOrigins(request.holder!, String(request.params.id), field(request.body, 'origins'));
        return true;
      },
      (body) => ({ origins: text(field(body, 'origins')) }),
    ),
  );
  router.post(
    '/keys/:id/requests',
    action(
      'requests',
      async (request) => {
        const body = request.body;
        await keys.ask(
          request.holder!,
          String(request.params.id),
          { kind: field(body, 'kind'), plan: field(body, 'plan'), reason: field(body, 'reason') },
          clientAddress(request),
        );
        return true;
      },
      (body) => ({ reason: text(field(body, 'reason')).slice(0, 1000), plan: text(field(body, 'plan')).slice(0, 40) }),
    ),
  );
  router.post(
    '/keys/:id/close',
    action('close', async (request) => {
      if (field(request.body, 'confirm') !== 'yes')
        throw new OperatorError('tick the box to confirm that the key is to be closed for good');
      await keys.close(request.holder!, String(request.params.id));
      return true;
    }),
  );

  router.post(
    '/keys/:id/alerts',
    action('alerts', async (request) => {
      await keys.allowanceMails(request.holder!, String(request.params.id), field(request.body, 'mails'));
      return true;
    }),
  );

  router.post(
    '/sign-out',
    handle(async (request, response) => {
      await signIn.signOut(request.cookieValue!);
      setCookie(response, sessionCookie, '', 0);
      send(response, 200, signedOutPage('signed-out'));
    }),
  );

  router.use((request: SessionRequest, response) => {
    send(
      response,
      404,
      refusedPage('Not found', 'No such page.', request.holder ? 'signed-in' : 'signed-out', request.holder?.csrfToken),
    );
  });
  router.use((error: unknown, request: SessionRequest, response: Response, next: NextFunction) => {
    const signedIn = request.holder ? 'signed-in' : 'signed-out';
    if (error instanceof OperatorError && error.code !== 'failed')
      return send(
        response,
        refusalStatus(error, response),
        refusedPage(
          error.code === 'not-found' ? 'Not found' : 'Refused',
          error.message,
          signedIn,
          request.holder?.csrfToken,
        ),
      );
    // The body parser's refusals (too large, too many fields, malformed) carry their 4xx status;
    // it read the whole body first, so the connection stays usable for the next form.
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500)
      return send(
        response,
        status,
        refusedPage(
          'Refused',
          status === 413
            ? `The form is larger than these pages read (${maxFormBytes / 1024} KB): nothing was done. Shorten what you typed and send it again.`
            : 'The form could not be read.',
          signedIn,
          request.holder?.csrfToken,
        ),
      );
    next(error);
  });
  return router;
}
