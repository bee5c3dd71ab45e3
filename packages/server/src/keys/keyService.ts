import type { IncomingHttpHeaders } from 'node:http';
import type { ApiKeyRecord } from '@quotes/accounts';
import { originAllowed } from '@quotes/accounts/rules';
import { isoSeconds } from '@quotes/accounts/rules';
import { keyStanding } from '@quotes/accounts/rules';
import { type EffectiveLimits, effectiveLimits } from '@quotes/accounts/rules';
import { Problem } from '@quotes/service-base/problems';
import { looksLikeApiKey } from '@quotes/accounts';
import type { KeyCache } from './keyCache.js';
import { originOf, presentedKey } from './presentedKey.js';

/** The caller of an API call: an active key with the limits it lives by. */
export interface AuthorizedKey {
  readonly key: ApiKeyRecord;
  readonly limits: EffectiveLimits;
}

/**
 * Steps 1 and 2 of the contract's order of checks, in one place: the key present, known, not
 * revoked and not expired, and allowing the page's origin when a browser sends one (else the
 * 401 or 403 problem is thrown), with its plan's effective
 * limits. A database failure propagates (answered 503).
 */
export async function authorizeCaller(headers: IncomingHttpHeaders, keys: KeyCache, now: Date): Promise<AuthorizedKey> {
  const presented = presentedKey(headers);
  const key = looksLikeApiKey(presented) ? await keys.lookup(presented) : undefined;
  // A rolled key's previous secret past its grace is as unknown as any other.
  if (!key || (key.previousSecretUntil !== undefined && now.getTime() >= key.previousSecretUntil.getTime()))
    throw new Problem('invalid-api-key', 'The API key is not recognised.');
  const standing = keyStanding(key, now);
  if (standing === 'revoked') {
    const when = key.revokedAt ? ` on ${isoSeconds(key.revokedAt)}` : '';
    throw new Problem('revoked-api-key', `This API key was revoked${when}.`, { keyId: key.id });
  }
  if (standing === 'expired') {
    throw new Problem('expired-api-key', `This API key expired on ${isoSeconds(key.expiresAt!)}.`, {
      keyId: key.id,
    });
  }
  // A browser names the page's origin; server-side callers send none and are not restricted.
  const origin = originOf(headers);
  if (origin !== undefined && !originAllowed(key.allowedOrigins, origin)) {
    throw new Problem(
      'origin-not-allowed',
      `This API key may not be used from pages on ${origin.slice(0, 200)}; the operator can allow that origin on the key (keys set-origins).`,
      { keyId: key.id },
    );
  }
  return { key, limits: effectiveLimits(key.plan, key.overrides) };
}
