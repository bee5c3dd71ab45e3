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

/** Sends of one notice tried at most; then it is marked failed (shown to the operator), never retried forever. */
export const noticeAttempts = 6;
/** How long a claimed notice is held for its sender: well beyond the mailer's 30 s deadline. */
export const noticeLeaseMs = 120_000;

/** The wait after failed attempt `attempt` (1-based): 1, 2, 4, 8, 16 minutes. */
export function noticeRetryDelayMs(attempt: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
}
