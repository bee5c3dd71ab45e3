/**
 * When the holder of a key is mailed, and what a mail may say of a revocation: plain rules, no
 * I/O. Each notice goes once per key, event and period (the period tells occurrences apart: an
 * allowance period's start, an expiry, a revocation).
 */

/** The allowance thresholds mailed, highest first: 100% settles an 80% not yet noticed. */
export const allowanceThresholds = [100, 80] as const;
export type AllowanceThreshold = (typeof allowanceThresholds)[number];

/** Whole percent of an allowance used, rounded down (an allowance of 0 is used up). */
export function percentOfAllowance(calls: number, limit: number): number {
  return limit === 0 ? 100 : Math.floor((calls * 100) / limit);
}

/** The highest threshold reached, or undefined below 80%. */
export function thresholdReached(calls: number, limit: number): AllowanceThreshold | undefined {
  const percent = percentOfAllowance(calls, limit);
  return allowanceThresholds.find((threshold) => percent >= threshold);
}

/** The expiry notice goes this many days before a key expires. */
export const expiryNoticeDays = 7;
const dayMs = 86_400_000;

/** Whether a key expiring at `expiresAt` is within the notice window at `now` (and not yet expired). */
export function expiryNoticeDue(expiresAt: Date | null, now: Date): boolean {
  if (expiresAt === null) return false;
  const left = expiresAt.getTime() - now.getTime();
  return left > 0 && left <= expiryNoticeDays * dayMs;
}

/**
 * What the holder is told of why a key was revoked: a category read from how it was revoked,
 * never the operator's reason (free text that may name other people or an investigation).
 */
export type RevocationCategory = 'closed-by-holder' | 'holder-keys-revoked' | 'revoked-by-operator';

/** Actors that are the key's holder acting on their own key (the holder's page). */
export const holderActorPrefix = 'holder:';

export function revocationCategoryOf(revocation: { actor: string; scope: 'key' | 'holder' }): RevocationCategory {
  if (revocation.actor.startsWith(holderActorPrefix)) return 'closed-by-holder';
  return revocation.scope === 'holder' ? 'holder-keys-revoked' : 'revoked-by-operator';
}

export const revocationCategoryText: Record<RevocationCategory, string> = {
  'closed-by-holder': 'You closed this key yourself.',
  'holder-keys-revoked': 'The operator revoked every key of this address or application at once.',
  'revoked-by-operator': 'The operator revoked this key.',
};

/** Sends of one notice tried at most; then it is marked failed (shown to the operator), never retried forever. */
export const noticeAttempts = 6;
/** How long a claimed notice is held for its sender: well beyond the mailer's 30 s deadline. */
export const noticeLeaseMs = 120_000;

/** The wait after failed attempt `attempt` (1-based): 1, 2, 4, 8, 16 minutes. */
export function noticeRetryDelayMs(attempt: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
}
