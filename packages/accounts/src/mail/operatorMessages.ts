import { rules } from '@quotes/contract';
import { allowanceSentence } from '../domain/allowanceWording.js';
import { expiryText } from '../domain/keyExpiry.js';
import { rollOutcomeWords } from '../domain/rollGrace.js';
import type { Signal } from '../domain/usageSignals.js';
import type { IssuedKey, KeyView, RolledKey } from '../operator/operatorApi.js';
import { inertForMail } from './inertText.js';
import type { MailMessage } from './mailer.js';
import { mailMessage } from './mailMessage.js';

/** The messages the operator sends: a key (new or rolled), the signs of broken terms. */

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

function planRows(view: KeyView): [string, string][] {
  return [
    ['Key', `${view.client} (${view.id})`],
    ['Plan', view.plan],
    ['Allowance', allowanceOf(view)],
    [
      'Filters per call',
      `${view.filtersPerCall}${view.faithFilter ? ' (faith filter included)' : ' (faith filter not included)'}`,
    ],
    ['Largest page', `${view.maxLimit} quotes`],
    ['Valid until', view.expiresAt === null ? 'no expiry' : expiryText(view.expiresAt)],
  ];
}

/** "this month", or a trial's own period: a trial's allowance does not follow the calendar. */
function usagePeriodOf(view: KeyView): string {
  const plan = rules.planById.get(view.plan);
  return plan?.allowancePeriod === 'validity' ? `over the key's ${plan.validityDays} days` : 'this month';
}

/**
 * The key, new or rolled, to its holder: an HTML mail (the key in a fixed-width face, the plan
 * in a table that holds in narrow clients, links) with its plain-text twin.
 */
export function keyMessage(
  issued: IssuedKey | RolledKey,
  view: KeyView,
  baseUrl: string,
  rolled: boolean,
): MailMessage {
  if (!view.email) throw new Error(`key ${view.id} has no e-mail address to send it to`);
  const keyPage = `${baseUrl}/account/keys/${view.id}`;
  const intro = rolled
    ? `Here is the new secret of your API key ${view.client} (${issued.id}). ${rollOutcomeWords('previousSecretIs' in issued ? issued : { previousSecretIs: null, previousSecretUntil: null })}`
    : `Here is your API key for ${view.client} (${issued.id}):`;
  const curl = `curl -H "X-API-Key: ${issued.key}" ${baseUrl}/v1/quotes-random`;
  const secret =
    'Keep the key secret: only a hash of it is stored, so it cannot be shown again. If it leaks, roll it "at once" on its page:';
  return mailMessage(
    view.email,
    rolled
      ? `Your new Quote Retrieval Service API key (${issued.plan} plan)`
      : `Your Quote Retrieval Service API key (${issued.plan} plan)`,
    [
      'Hello,',
      intro,
      { key: issued.key },
      { rows: planRows(view) },
      {
        lead: [
          'Send it in the ',
          { code: 'X-API-Key' },
          ' header (or as ',
          { code: 'Authorization: Bearer <key>' },
          ') with every call:',
        ],
        command: curl,
      },
      [
        "Your keys' page (their calls, roll, close): ",
        { link: `${baseUrl}/account` },
        '\nAPI reference: ',
        { link: `${baseUrl}/docs` },
        `\nYour usage ${usagePeriodOf(view)}: `,
        { code: `GET ${baseUrl}/v1/quotes-usage` },
        ' (free)',
      ],
      { lead: secret, link: keyPage },
    ],
  );
}

/** The signs of broken terms of a month, to the operator (never to a customer). */
export function usageSignalsMessage(signals: readonly Signal[], month: string, operatorEmail: string): MailMessage {
  return mailMessage(
    operatorEmail,
    `Quote Retrieval Service: ${signals.length} sign${signals.length === 1 ? '' : 's'} of broken terms in ${month}`,
    [
      `Signs of broken terms in ${month} (UTC), each with its evidence:`,
      ...(signals.length === 0
        ? []
        : [
            signals
              .map((signal) => {
                const involved = [...signal.involves.keys, ...signal.involves.requests];
                const named =
                  involved.length === 1 && involved[0] === signal.subject ? '' : ` (${involved.join(', ')})`;
                // Evidence names clients and applications strangers typed: inert, so no part of it is a link.
                return inertForMail(`- ${signal.subject} ${signal.signal}${named}: ${signal.evidence}`);
              })
              .join('\n'),
          ]),
      ['Details: ', { code: `npx quotes-admin usage signals --month ${month}` }],
    ],
  );
}
