import type { IncomingHttpHeaders } from 'node:http';
import type { ApiKeyRecord } from '../data/apiKeys.js';
import { isoSeconds } from '../domain/calendarMonth.js';
import { keyStanding } from '../domain/keyStanding.js';
import { type EffectiveLimits, effectiveLimits } from '../domain/plans.js';
import { Problem } from '../problems.js';
import { looksLikeApiKey } from './apiKeySecret.js';
import type { KeyCache } from './keyCache.js';

/** The caller of an API call: an active key with the limits it lives by. */
export interface AuthorizedKey {
  readonly key: ApiKeyRecord;
  readonly limits: EffectiveLimits;
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)$/i.exec(authorization);
  return match?.[1];
}

/**
 * Steps 1 and 2 of the contract's order of checks, in one place: the key present, known, not
 * revoked and not expired (else the 401 or 403 problem is thrown), with its plan's effective
 * limits. A database failure propagates (answered 503).
 */
export async function authorizeCaller(headers: IncomingHttpHeaders, keys: KeyCache, now: Date): Promise<AuthorizedKey> {
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
  const presented = (fromHeader ?? fromBearer)!;
  const key = looksLikeApiKey(presented) ? await keys.lookup(presented) : undefined;
  if (!key) throw new Problem('invalid-api-key', 'The API key is not recognised.');
  const standing = keyStanding(key, now);
  if (standing === 'revoked') {
    const when = key.revokedAt ? ` on ${isoSeconds(key.revokedAt)}` : '';
    throw new Problem('revoked-api-key', `This API key was revoked${when}.`);
  }
  if (standing === 'expired') {
    throw new Problem('expired-api-key', `This API key expired on ${isoSeconds(key.expiresAt!)}.`);
  }
  return { key, limits: effectiveLimits(key.plan, key.overrides) };
}
