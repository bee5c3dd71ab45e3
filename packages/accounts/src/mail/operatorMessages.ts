import { rules } from '@quotes/contract';
import { allowanceSentence } from '../domain/allowanceWording.js';
import { expiryText } from '../domain/keyExpiry.js';
import type { Signal } from '../domain/usageSignals.js';
import type { IssuedKey, KeyView } from '../operator/operatorApi.js';
import { inertForMail } from './inertText.js';
import type { MailMessage } from './mailer.js';

/** The messages the operator sends: a key (new or rolled), the signs of broken terms. Plain text, one language. */

const count = (value: number) => value.toLocaleString('en-US');

/** "1,000 calls over its 30 days", "10,000 calls a month (UTC calendar months)": the plan's wording, with the key's own allowance. */
function allowanceOf(view: KeyView): string {
  const plan = rules.planById.get(view.plan);
  // The key's own figure: null is no limit (an enterprise key without one of its own too).
  if (view.monthlyCalls === null) return 'unlimited calls';
  if (!plan) return `${count(view.monthlyCalls)} calls a month`;
  const sentence = allowanceSentence(plan, view.monthlyCalls);
  return plan.allowancePeriod === 'month' ? `${sentence} (UTC calendar months)` : sentence;
}

function planLines(view: KeyView): string[] {
  return [
    `  Plan:              ${view.plan}`,
    `  Allowance:         ${allowanceOf(view)}`,
    `  Filters per call:  ${view.filtersPerCall}${view.faithFilter ? ' (faith filter included)' : ' (faith filter not included)'}`,
    `  Largest page:      ${view.maxLimit} quotes`,
    `  Valid until:       ${view.expiresAt === null ? 'no expiry' : expiryText(view.expiresAt)}`,
  ];
}

export function keyMessage(issued: IssuedKey, view: KeyView, baseUrl: string, rolled: boolean): MailMessage {
  if (!view.email) throw new Error(`key ${view.id} has no e-mail address to send it to`);
  return {
    to: view.email,
    subject: rolled
      ? `Your new Quote Retrieval Service API key (${issued.plan} plan)`
      : `Your Quote Retrieval Service API key (${issued.plan} plan)`,
    text: [
      'Hello,',
      '',
      rolled
        ? `Here is the new secret for your API key ${issued.id} (${view.client}). The previous one no longer works.`
        : `Here is your API key for ${view.client}:`,
      '',
      `  ${issued.key}`,
      '',
      ...planLines(view),
      '',
      'Send it in the X-API-Key header (or as "Authorization: Bearer <key>") with every call:',
      `  curl -H "X-API-Key: ${issued.key}" ${baseUrl}/v1/quotes-random`,
      '',
      `API reference: ${baseUrl}/docs`,
      `Your usage this month: GET ${baseUrl}/v1/quotes-usage`,
      '',
      'Keep the key secret. We store only a hash of it and cannot show it again; if it leaks,',
      'reply to this message and we will replace it.',
    ].join('\n'),
  };
}

/** The signs of broken terms of a month, to the operator (never to a customer). */
export function usageSignalsMessage(signals: readonly Signal[], month: string, operatorEmail: string): MailMessage {
  return {
    to: operatorEmail,
    subject: `Quote Retrieval Service: ${signals.length} sign${signals.length === 1 ? '' : 's'} of broken terms in ${month}`,
    text: [
      `Signs of broken terms in ${month} (UTC), each with its evidence:`,
      '',
      ...signals.map((signal) => {
        const involved = [...signal.involves.keys, ...signal.involves.requests];
        const named = involved.length === 1 && involved[0] === signal.subject ? '' : ` (${involved.join(', ')})`;
        // Evidence names clients and applications strangers typed: inert, so no part of it is a link.
        return inertForMail(`- ${signal.subject} ${signal.signal}${named}: ${signal.evidence}`);
      }),
      '',
      `Details: npx quotes-admin usage signals --month ${month}`,
    ].join('\n'),
  };
}
