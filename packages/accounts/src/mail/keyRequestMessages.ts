import { decisionCategoryWords } from '../domain/decisionCategories.js';
import { waitingBecause } from '../domain/keyRequestDecision.js';
import { rules } from '@quotes/contract';
import { afterRequestSentence, planPriceSentence, trialArrival } from '../domain/allowanceWording.js';
import { inertForMail } from './inertText.js';
import type { MailMessage } from './mailer.js';
import { mailMessage } from './mailMessage.js';

/** What happens after a request for `planId` (its price and the operator's answer by mail). */
function afterRequestOf(planId: string): string {
  const plan = rules.planById.get(planId);
  return plan
    ? `${planPriceSentence(plan)} ${afterRequestSentence(plan)}`
    : 'Once confirmed, the operator reviews the request and answers within a few hours.';
}

/**
 * The messages of a key request: the confirmation link, "received, waiting for the operator",
 * the rejection, the operator's digest, each in both parts (mailMessage.ts; names and texts come
 * from a public form). Until its address is confirmed, a request's mail
 * carries none of the text a stranger typed: anyone can ask for a key for any address, and the
 * service must not carry their words to it.
 */

export interface RequestSummary {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly application: string;
  readonly plan: string;
}

/** The link that proves the address: the plan (one of the contract's names) and nothing the asker typed. */
export function confirmationMessage(
  request: { readonly email: string; readonly plan: string },
  link: string,
  validHours: number,
): MailMessage {
  return mailMessage(request.email, 'Confirm your request for a Quote Retrieval Service API key', [
    'Hello,',
    `Someone asked for a Quote Retrieval Service API key on the ${request.plan} plan, to be sent to this address. To confirm that this address is yours and that you asked, open the link below and press "Confirm" (the link works once, for ${validHours} hours):`,
    { link },
    request.plan === 'trial'
      ? `Once confirmed, a trial key is sent to you ${trialArrival} when the checks pass (one trial per person and per network); otherwise the operator answers within a few hours.`
      : afterRequestOf(request.plan),
    'If you did not ask for a key, ignore this message: nothing happens without the confirmation.',
  ]);
}

/** `holderReasons`: why it waits, in words the person who asked may read (never another's data). */
export function receivedMessage(request: RequestSummary, holderReasons: readonly string[] = []): MailMessage {
  return mailMessage(request.email, 'Your request for a Quote Retrieval Service API key is with the operator', [
    `Hello ${request.name},`,
    `Thank you for confirming your address. Your request ${request.id} for a key on the ${request.plan} plan for "${request.application}" is now with the operator, who answers within a few hours, by mail to this address.`,
    ...(holderReasons.length === 0 ? [] : [waitingBecause(holderReasons)]),
  ]);
}

/** `category`: a decision category (domain/decisionCategories.ts); its words are mailed, never the operator's. */
export function rejectionMessage(request: RequestSummary, category: string): MailMessage {
  return mailMessage(request.email, 'Your request for a Quote Retrieval Service API key', [
    `Hello ${request.name},`,
    `We cannot grant your request ${request.id} for a key on the ${request.plan} plan for "${request.application}". The reason recorded: ${decisionCategoryWords(category)}.`,
    'Reply to this message if you think this is a mistake.',
  ]);
}

export interface DigestEntry extends RequestSummary {
  readonly createdAt: string;
  readonly reasons: readonly string[];
}

export function digestMessage(to: string, pending: readonly DigestEntry[]): MailMessage {
  return mailMessage(
    to,
    `Quote Retrieval Service: ${pending.length} key request${pending.length === 1 ? '' : 's'} waiting`,
    [
      pending.length === 0
        ? 'No key request is waiting.'
        : `${pending.length} confirmed key request(s) wait for a decision:`,
      // The names, addresses and reasons are strangers' text: inert, so the operator's mail client links none of it.
      ...pending.map(
        (entry) =>
          `${entry.id}  ${entry.createdAt}  ${entry.plan}\n${inertForMail(`${entry.name} <${entry.email}>, "${entry.application}"`)}\n${entry.reasons.length > 0 ? `Waiting because: ${inertForMail(entry.reasons.join('; '))}` : 'Waiting for the operator'}`,
      ),
      ['Decide with: ', { code: 'quotes-admin requests approve ID --send | requests reject ID --category CATEGORY' }],
    ],
  );
}

/** Where the operator decides: the console's default address, once `quotes-admin console` runs. */
export const consoleDefaultUrl = 'http://127.0.0.1:4100/';

/** The service's own notice that requests wait: counts and where to decide, no text a stranger typed. */
export function requestsWaitingMessage(to: string, waiting: number, intervalMinutes: number): MailMessage {
  return mailMessage(to, `Quote Retrieval Service: ${waiting} key request${waiting === 1 ? '' : 's'} waiting for you`, [
    `${waiting} key request${waiting === 1 ? ' waits' : 's wait'} for your decision. The form promises an answer within a few hours.`,
    'Decide them in the console (start it with: npx quotes-admin console):',
    { link: consoleDefaultUrl },
    ['or with: ', { code: 'npx quotes-admin requests list' }],
    `This notice comes when requests start waiting, at most once every ${intervalMinutes} minutes.`,
  ]);
}
