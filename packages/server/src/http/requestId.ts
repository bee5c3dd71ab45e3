import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { mayHoldSecret } from '@quotes/service-base';

const acceptableRequestId = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * A request's id, sent back in X-Request-Id and as a problem's `instance`: the caller's own
 * X-Request-Id when it is a sane token (so a trace can follow a call across services), else a
 * fresh UUID. An offered id that looks like a key or token is not taken: the id is written in
 * every log line of the request, and a redacted one would join nothing.
 */
export function requestIdFor(headers: IncomingHttpHeaders): string {
  const offered = headers['x-request-id'];
  return typeof offered === 'string' && acceptableRequestId.test(offered) && !mayHoldSecret(offered)
    ? offered
    : randomUUID();
}
