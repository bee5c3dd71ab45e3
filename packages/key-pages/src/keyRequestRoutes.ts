import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from 'express';
import { sendApiResponse } from '@quotes/service-base';
import { invalidRequest, type ParameterError, Problem } from '@quotes/service-base/problems';
import { clientAddressReader, postedFromOwnSite } from '@quotes/service-base';
import type { BodyValidator } from './keyRequestInput.js';
import {
  checkYourMailPage,
  confirmedPage,
  confirmPage,
  type FormValues,
  invalidLinkPage,
  pageContentSecurityPolicy,
  pageStyles,
  proofPageContentSecurityPolicy,
  refusedPage,
  requestFormPage,
  termsPage,
  unusableRequestPage,
} from './keyRequestPages.js';
import { type KeyRequestService, type ProofOfWork, requirePublicBaseUrl } from '@quotes/accounts';
import { type ProofOfWorkAsk, proofRefusalWords } from '@quotes/text-rules';
import { proofOfWorkAssetRoutes } from './proofOfWorkRoutes.js';

/** The largest body of a key request (the form's fields at their limits fit several times over). */
export const maxBodyBytes = 16 * 1024;
/** The most fields a form may carry: the form has seven. */
export const maxFormFields = 20;

/** Why each bound refused a request, as the 429 says it. */
const refusedBy = {
  address: 'from this address in the last hour',
  network: 'from this network in the last hour',
  email: 'for this e-mail address in the last hour',
  busy: 'from this network while the service is busy (one an hour per network until it is quieter)',
  queue: 'waiting: the queue is full',
} as const;

/** The words of a refusal: the bound that refused, and when to come back. */
function refusalWords(by: keyof typeof refusedBy | 'mail', retryAfterSeconds: number): string {
  if (by === 'mail')
    return `The service has sent all the confirmation mails it sends to new addresses this hour, so nothing was recorded or mailed; try again in ${minutesOf(retryAfterSeconds)}.`;
  return `Too many key requests ${refusedBy[by]}; try again in ${minutesOf(retryAfterSeconds)}.`;
}

/**
 * A body the parsers refused, as the problem it is: body-parser marks each of its refusals with a
 * type and a 4xx status (too many fields, a charset or encoding it does not read, a body that
 * stopped short). Anything else is not the client's doing and goes on to the 500 handler.
 */
function bodyProblem(error: unknown): Problem | undefined {
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  if (type === 'entity.too.large')
    return new Problem('request-too-large', `A key request is at most ${maxBodyBytes} bytes.`);
  if (type === 'parameters.too.many')
    return invalidRequest([{ parameter: 'body', message: `must have at most ${maxFormFields} fields` }]);
  if (type === 'entity.parse.failed') return invalidRequest([{ parameter: 'body', message: 'is not valid JSON' }]);
  if (type === 'charset.unsupported' || type === 'encoding.unsupported')
    return invalidRequest([{ parameter: 'body', message: 'must be UTF-8 text, uncompressed or gzip/deflate/br' }]);
  if (typeof type === 'string' && typeof status === 'number' && status >= 400 && status < 500)
    return invalidRequest([{ parameter: 'body', message: 'could not be read' }]);
  return undefined;
}

/** A browser (its Accept prefers HTML) is answered with pages; scripts with JSON and problem details. */
export const wantsPage = (request: Request) =>
  request.accepts(['application/json', 'application/problem+json', 'text/html']) === 'text/html';

function sendPage(response: Response, status: number, html: string, withProof = false): void {
  response.status(status);
  response.setHeader('Content-Type', 'text/html; charset=utf-8');
  response.setHeader('Content-Security-Policy', withProof ? proofPageContentSecurityPolicy : pageContentSecurityPolicy);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  // The confirmation page's URL holds the token: never cached, never sent on as a Referer.
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.send(html);
}

/**
 * A refusal decided before these pages' routers (the public pages' bulkhead), made once: the
 * status, headers and body a browser gets (a page in words) and a script gets (problem details).
 */
export function refusalAnswers(
  problem: Problem,
): Record<'page' | 'problem', { headers: Record<string, string>; body: Buffer }> {
  return {
    page: {
      headers: {
        ...problem.headers,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': pageContentSecurityPolicy,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      },
      body: Buffer.from(refusedPage(problem.title, problem.message)),
    },
    problem: {
      headers: { ...problem.headers, 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' },
      body: Buffer.from(JSON.stringify(problem.body())),
    },
  };
}

/** A wait as a person reads it: whole minutes, rounded up (Retry-After keeps the seconds). */
export function minutesOf(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

const tokenOf = (value: unknown) => (typeof value === 'string' && /^[A-Za-z0-9]{1,64}$/.test(value) ? value : '');

/**
 * GET /keys/request, GET /terms, POST /keys/requests, GET and POST /keys/confirm, and the
 * proof-of-work widget's files (asked for by `proof` while the service is busy).
 */
export function keyRequestRouter(service: KeyRequestService, validate: BodyValidator, proof: ProofOfWork): Router {
  const router = Router();
  /** The form, with the widget when the service asks for the proof. */
  const sendForm = (
    response: Response,
    status: number,
    values?: FormValues,
    errors?: readonly ParameterError[],
    ask?: ProofOfWorkAsk,
  ) => sendPage(response, status, requestFormPage(values, errors, ask), ask !== undefined);
  const clientAddress = clientAddressReader(service.settings.trustProxy);
  // A post is checked for its site before its body is read, then its body parsed, at most 16 KB.
  const ownSitePosts: RequestHandler[] = [
    (request, _response, next) => {
      if (!postedFromOwnSite(request, new URL(requirePublicBaseUrl(service.settings.publicBaseUrl)).origin))
        throw new Problem('cross-site-request', "Key requests are accepted from this service's own form only.");
      next();
    },
    express.json({ limit: maxBodyBytes, type: 'application/json' }),
    express.urlencoded({ limit: maxBodyBytes, extended: false, parameterLimit: maxFormFields }),
  ];

  router.get('/keys/page.css', (_request, response) => {
    response.setHeader('Content-Type', 'text/css; charset=utf-8');
    response.setHeader('Cache-Control', 'public, max-age=3600');
    response.send(pageStyles);
  });
  router.use(proofOfWorkAssetRoutes());
  router.get('/keys/request', async (_request, response) => sendForm(response, 200, {}, [], await proof.asked()));
  router.get('/terms', (_request, response) => sendPage(response, 200, termsPage()));

  router.post('/keys/requests', ...ownSitePosts, async (request, response) => {
    const checked = validate(request.body ?? null);
    if ('errors' in checked) throw invalidRequest(checked.errors);
    const address = clientAddress(request);
    // No address: the connection closed while the body was read; no one is left to answer.
    if (address === '') throw invalidRequest([{ parameter: 'body', message: 'arrived on a closed connection' }]);
    // While the service is busy, nothing is recorded or mailed without a proof of work.
    const proven = await proof.check((request.body as Record<string, unknown>).altcha);
    if (proven.outcome === 'refused') {
      const retryAfter = String(proven.asked.untilQuieterSeconds ?? 3600);
      if (!wantsPage(request))
        throw new Problem(
          'too-many-key-requests',
          proofRefusalWords(proven.reason, proven.asked, 'request', 'script'),
          {
            headers: { 'Retry-After': retryAfter },
          },
        );
      response.setHeader('Retry-After', retryAfter);
      sendForm(response, 429, request.body as FormValues, [], {
        ...proven.asked,
        refusal: proofRefusalWords(proven.reason, proven.asked, 'request'),
      });
      return;
    }
    const admission = await service.submit(checked.input, address);
    if (!admission.admitted)
      throw new Problem('too-many-key-requests', refusalWords(admission.by, admission.retryAfterSeconds), {
        headers: { 'Retry-After': String(admission.retryAfterSeconds) },
      });
    if (wantsPage(request)) {
      sendPage(response, 202, checkYourMailPage());
      return;
    }
    sendApiResponse(response, {
      status: 202,
      body: JSON.stringify({
        status: 'received',
        detail: 'Check your mail for a link to confirm the address (valid 24 hours).',
      }),
      headers: { 'Cache-Control': 'no-store' },
    });
  });

  // A link opened (or fetched by a mail scanner): a page with a button; nothing is confirmed here.
  router.get('/keys/confirm', async (request, response) => {
    const token = tokenOf(new URL(request.originalUrl, 'http://x').searchParams.get('token'));
    const waiting = token === '' ? undefined : await service.awaitingConfirmation(token);
    if (!waiting) {
      sendPage(response, 404, invalidLinkPage());
      return;
    }
    sendPage(response, 200, confirmPage(token, waiting));
  });

  router.post('/keys/confirm', ...ownSitePosts, async (request, response) => {
    const token = tokenOf((request.body as Record<string, unknown> | undefined)?.token);
    const confirmation = token === '' ? { outcome: 'invalid' as const } : await service.confirm(token);
    if (confirmation.outcome === 'invalid') {
      sendPage(response, 404, invalidLinkPage());
      return;
    }
    if (confirmation.outcome === 'unusable') {
      sendPage(response, 200, unusableRequestPage(confirmation.reason));
      return;
    }
    sendPage(
      response,
      200,
      confirmation.outcome === 'waiting'
        ? confirmedPage('waiting', confirmation.request.email, confirmation.holderReasons)
        : confirmedPage('granted', confirmation.request.email),
    );
  });

  // Browsers get their refusals as pages; scripts get problem details from the app's responder.
  const formErrors: ErrorRequestHandler = async (error, request, response, next) => {
    const problem = error instanceof Problem ? error : bodyProblem(error);
    if (!problem) {
      next(error);
      return;
    }
    if (!wantsPage(request)) {
      next(problem);
      return;
    }
    for (const [name, value] of Object.entries(problem.headers)) response.setHeader(name, value);
    if (problem.kind === 'invalid-request' && request.path === '/keys/requests') {
      // A form refused for its fields while the service is busy keeps the widget for the next try.
      sendForm(response, 400, request.body as FormValues, problem.errors ?? [], await proof.asked());
      return;
    }
    sendPage(response, problem.status, refusedPage(problem.title, problem.message));
  };
  router.use(formErrors);
  return router;
}
