import type { IncomingHttpHeaders } from 'node:http';
import { Problem } from '@quotes/service-base/problems';

function singleHeader(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)$/i.exec(authorization);
  return match?.[1];
}

/** The request's `Origin` (a browser's page), when it sends one. */
export function originOf(headers: IncomingHttpHeaders): string | undefined {
  return singleHeader(headers.origin);
}

/**
 * Step 1 of the contract's order of checks as far as it needs no data: one key presented, in
 * X-API-Key or as Authorization Bearer (two different keys are refused). Whether it is known is
 * the key service's question; the mock asks only this.
 */
export function presentedKey(headers: IncomingHttpHeaders): string {
  const fromHeader = singleHeader(headers['x-api-key']);
  const authorization = singleHeader(headers.authorization);
  const fromBearer = bearerToken(authorization);
  if (fromHeader === undefined && fromBearer === undefined) {
    throw new Problem(
      'missing-api-key',
      authorization === undefined
        ? 'Send your key in the X-API-Key header or as Authorization Bearer.'
        : 'The Authorization header is not "Bearer <key>"; send your key in the X-API-Key header or as Authorization Bearer.',
    );
  }
  if (fromHeader !== undefined && fromBearer !== undefined && fromHeader !== fromBearer) {
    throw new Problem('conflicting-api-keys', 'X-API-Key and Authorization Bearer carry different keys; send one key.');
  }
  return (fromHeader ?? fromBearer)!;
}
