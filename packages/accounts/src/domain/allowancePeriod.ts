import type { PlanRules } from './plans.js';
import { calendarMonthOf } from './calendarMonth.js';

const dayMs = 86_400_000;

/** The span a key's allowance covers; `end` is when it resets (a month) or ends (a trial's expiry). */
export interface AllowancePeriod {
  readonly start: Date;
  readonly end: Date;
}

/**
 * The period a key's allowance covers at `now`, by its plan's `allowance_period`: the calendar
 * month in UTC, or the key's validity window (issue to expiry) for a plan whose allowance covers
 * its validity (the trial's 1,000 calls over its 30 days, never reset on the 1st). The one place
 * this rule lives: counting, quotes-usage, the allowance headers, the mock and the mails read it.
 */
export function allowancePeriod(
  plan: PlanRules,
  key: { createdAt: Date; expiresAt: Date | null },
  now: Date,
): AllowancePeriod {
  if (plan.allowancePeriod === 'validity') {
    // A key of such a plan always has an expiry; one without (an operator's override) keeps the plan's days.
    const end = key.expiresAt ?? new Date(key.createdAt.getTime() + (plan.validityDays ?? 0) * dayMs);
    return { start: key.createdAt, end };
  }
  const month = calendarMonthOf(now);
  return { start: month.start, end: month.next };
}

/** The period's length in whole seconds (the RateLimit-Policy window). */
export function periodSeconds(period: AllowancePeriod): number {
  return Math.max(0, Math.round((period.end.getTime() - period.start.getTime()) / 1000));
}

/** Whole seconds from `now` to the period's end, rounded up so a client waiting that long is never early. */
export function secondsUntilPeriodEnd(period: AllowancePeriod, now: Date): number {
  return Math.max(0, Math.ceil((period.end.getTime() - now.getTime()) / 1000));
}

/**
 * The months ('YYYY-MM-01') before `now`'s month in which the period already ran: their calls
 * are spent from the period's allowance. Empty for a monthly plan.
 */
export function earlierMonthsOf(period: AllowancePeriod, now: Date): string[] {
  const current = calendarMonthOf(now);
  const months: string[] = [];
  let instant = period.start;
  // Bounded: a validity window of years would still list one key per month.
  while (instant < current.start && months.length < 240) {
    const month = calendarMonthOf(instant);
    months.push(month.key);
    instant = month.next;
  }
  return months;
}
