import type { IncomingHttpHeaders } from 'node:http';
import type { ApiKeyRecord } from '../data/apiKeys.js';
import { isoSeconds } from '../domain/calendarMonth.js';
import { keyStanding } from '../domain/keyStanding.js';
import { looksLikeApiKey } from '../keys/apiKeySecret.js';
import type { KeyCache } from '../keys/keyCache.js';
import { Problem } from '../problems.js';

/** Steps 1 and 2 of the order of checks: the key, then its status. */
export type CallerResolution =
  | { readonly ok: true; readonly key: ApiKeyRecord }
  | { readonly ok: false; readonly problem: Problem }
  // The database could not be asked: answered 503 by the caller of this module.
  | { readonly ok: false; readonly error: unknown };

function singleHeader(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)$/i.exec(authorization);
  return match?.[1];
}

export async function authenticateCaller(
  headers: IncomingHttpHeaders,
  keys: KeyCache,
  now: Date,
): Promise<CallerResolution> {
  const fromHeader = singleHeader(headers['x-api-key']);
  const authorization = singleHeader(headers.authorization);
  const fromBearer = bearerToken(authorization);
  if (fromHeader === undefined && fromBearer === undefined) {
    const detail =
      authorization === undefined
        ? 'Send your key in the X-API-Key header or as Authorization Bearer.'
        : 'The Authorization header is not "Bearer <key>"; send your key in the X-API-Key header or as Authorization Bearer.';
    return { ok: false, problem: new Problem('missing-api-key', detail) };
  }
  if (fromHeader !== undefined && fromBearer !== undefined && fromHeader !== fromBearer) {
    return {
      ok: false,
      problem: new Problem(
        'conflicting-api-keys',
        'X-API-Key and Authorization Bearer carry different keys; send one key.',
      ),
    };
  }
  const presented = (fromHeader ?? fromBearer)!;
  // Built only when needed: a Problem is an Error, and capturing its stack on every call is not free.
  const invalid = () => ({
    ok: false as const,
    problem: new Problem('invalid-api-key', 'The API key is not recognised.'),
  });
  if (!looksLikeApiKey(presented)) return invalid();
  let key: ApiKeyRecord | undefined;
  try {
    key = await keys.lookup(presented);
  } catch (error) {
    return { ok: false, error };
  }
  if (!key) return invalid();
  const standing = keyStanding(key, now);
  if (standing === 'revoked') {
    const when = key.revokedAt ? ` on ${isoSeconds(key.revokedAt)}` : '';
    return { ok: false, problem: new Problem('revoked-api-key', `This API key was revoked${when}.`) };
  }
  if (standing === 'expired' && key.expiresAt) {
    return {
      ok: false,
      problem: new Problem('expired-api-key', `This API key expired on ${isoSeconds(key.expiresAt)}.`),
    };
  }
  return { ok: true, key };
}
