import { allowanceSentence, priceSentence } from '@quotes/contract';
import type { AllowancePeriod } from './allowancePeriod.js';
import { isoSeconds } from './calendarMonth.js';
import type { PlanRules } from './plans.js';

/**
 * What the pages, the mails, quotes-usage and the 429 say about an allowance, its price and a
 * trial's arrival: each sentence written once here (the plan's own wording is the contract's,
 * shared with the reference page's tables).
 */
export { allowanceSentence, priceSentence };

/** How fast a trial key arrives once the address is confirmed and the checks pass: said the same on every page and mail. */
export const trialArrival = 'by mail within a minute';

/** "The starter plan is 49 USD a month.", "The enterprise plan is priced on request." */
export function planPriceSentence(plan: PlanRules): string {
  const price = priceSentence(plan.price);
  return `The ${plan.id} plan is ${price === 'on request' ? 'priced on request' : price}.`;
}

/** What happens after a request for the plan: what the product does, nothing more. */
export function afterRequestSentence(plan: PlanRules): string {
  return plan.selfService
    ? `Once your address is confirmed, the key is sent ${trialArrival} when the checks pass.`
    : 'Once your address is confirmed, the request waits for the operator, who approves it (the key is mailed to you) or rejects it, and tells you by mail within a few hours.';
}

/** quotes-usage's `resets`, in words. */
export function resetSentence(plan: PlanRules): string {
  return plan.allowancePeriod === 'validity'
    ? `Does not reset: the allowance covers the key's ${plan.validityDays} days and ends when the key expires`
    : 'Resets at 00:00 UTC on the 1st of each month';
}

/** The 429 detail of an allowance used up: how many calls, of which period, and when that period ends. */
export function allowanceUsedSentence(plan: PlanRules, limit: number, period: AllowancePeriod): string {
  return plan.allowancePeriod === 'validity'
    ? `All ${limit} calls of this key's ${plan.validityDays} days are used; the key expires at ${isoSeconds(period.end)}.`
    : `All ${limit} calls of this month are used; the allowance resets at ${isoSeconds(period.end)}.`;
}
