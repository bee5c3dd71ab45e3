import type { RequestHandler } from 'express';
import type { ContractRouting } from './contractRouting.js';

/** What a page may send and read (the contract's "Browsers (CORS)"); keys are checked per origin on the call itself. */
export const corsAllowedMethods = 'GET, HEAD';
// `Prefer` is ignored here (RFC 7240 lets a server), but the mock picks answers by it: a page
// that sends it to the mock then runs unchanged against the server.
export const corsAllowedHeaders = 'X-API-Key, Authorization, If-None-Match, X-Request-Id, Prefer';
export const corsExposedHeaders =
  'RateLimit-Policy, RateLimit, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag, X-Request-Id, WWW-Authenticate';
/** How long a browser may reuse a preflight's answer, in seconds. */
export const corsMaxAgeSeconds = 600;

/**
 * Every answer to a request with an `Origin` (refusals included) names that origin, so the page
 * can read the problem; whether the key allows the origin is the key check's decision (403
 * origin-not-allowed). `OPTIONS` on a known path is answered here: a preflight carries no key.
 */
export function crossOrigin(routing: ContractRouting): RequestHandler {
  return (request, response, next) => {
    const origin = request.headers.origin;
    if (origin !== undefined) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Access-Control-Expose-Headers', corsExposedHeaders);
      response.setHeader('Vary', 'Origin');
    }
    if (request.method !== 'OPTIONS') {
      next();
      return;
    }
    const path = (request.originalUrl ?? request.url).split('?')[0]!;
    const match = routing.match('GET', path);
    if ('notFound' in match) {
      next();
      return;
    }
    response.statusCode = 204;
    response.setHeader('Allow', 'GET, HEAD, OPTIONS');
    if (origin !== undefined && request.headers['access-control-request-method'] !== undefined) {
      response.setHeader('Access-Control-Allow-Methods', corsAllowedMethods);
      response.setHeader('Access-Control-Allow-Headers', corsAllowedHeaders);
      response.setHeader('Access-Control-Max-Age', String(corsMaxAgeSeconds));
    }
    response.end();
  };
}
