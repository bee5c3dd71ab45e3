import { rules } from '@quotes/contract';
import { afterRequestSentence, allowanceSentence, priceSentence, trialArrival } from '@quotes/accounts/rules';
import { type Html, html } from '@quotes/text-rules';

/**
 * What the form and the terms say of each plan: its allowance, price and what happens after the
 * request, in the accounts rules' wording (the same as the mails, quotes-usage and the reference).
 */

const trial = rules.plans.find((plan) => plan.selfService);

/** The plan's option on the form: "starter: 10,000 calls a month, 49 USD a month (the operator decides)". */
export function planLabel(id: string): string {
  const plan = rules.planById.get(id);
  if (!plan) return id;
  const answer = plan.selfService ? `sent ${trialArrival}` : 'the operator decides';
  return `${id}: ${allowanceSentence(plan)}, ${priceSentence(plan.price)} (${answer})`;
}

/** The trial in one clause: "a trial key (1,000 calls over its 30 days, free, no payment card)". */
export function trialClause(): string {
  return trial ? `a trial key (${allowanceSentence(trial)}, ${priceSentence(trial.price)}, no payment card)` : 'a key';
}

/** The form's hint under the plan choice. */
export const planHint = `A trial is sent ${trialArrival} once your address is confirmed; the other plans wait for the operator, who approves or rejects each request by mail.`;

/** Each plan: allowance, price and what happens after the request. */
export function planList(): Html {
  return html`<ul class="plans">${rules.plans.map(
    (plan) =>
      html`<li><strong>${plan.id}</strong>: ${allowanceSentence(plan)}; ${priceSentence(plan.price)}. ${afterRequestSentence(plan)}</li>`,
  )}</ul>`;
}
