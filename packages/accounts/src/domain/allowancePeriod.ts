import type { PlanRules } from './plans.js';

/**
 * The period a key's allowance is counted over at `now`: the calendar month in UTC. (The
 * allowance-period rule of the contract's plans replaces this one.)
 */
export function allowancePeriod(
  _plan: PlanRules,
  _key: { createdAt: Date; expiresAt: Date | null },
  now: Date,
): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}
