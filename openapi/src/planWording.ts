import type { PlanPrice, PlanRules } from './contractRules.js';

/**
 * How a plan's allowance and price are said, on every surface that says them (the reference
 * page's tables, the key-request form and terms, the mails, quotes-usage and the 429's detail):
 * one wording, read from `info.x-plans`, so a trial never reads "a month" in one place and "over
 * its 30 days" in another.
 */

const count = (calls: number) => calls.toLocaleString('en-US');

/** "1,000 calls over its 30 days", "10,000 calls a month", "unlimited calls a month", "calls set per key". */
export function allowanceSentence(plan: PlanRules, calls: number | null = plan.monthlyCalls): string {
  if (calls === null) return plan.perKeyLimits ? 'calls set per key' : 'unlimited calls a month';
  const noun = calls === 1 ? 'call' : 'calls';
  return plan.allowancePeriod === 'validity'
    ? `${count(calls)} ${noun} over its ${plan.validityDays} days`
    : `${count(calls)} ${noun} a month`;
}

/** "free", "49 USD a month", "on request". */
export function priceSentence(price: PlanPrice | null): string {
  if (price === null) return 'on request';
  if (price.amount === 0) return 'free';
  return `${count(price.amount)} ${price.currency} ${price.per === 'month' ? 'a month' : 'per key'}`;
}
