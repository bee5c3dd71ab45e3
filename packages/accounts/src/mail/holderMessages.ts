import { rules } from '@quotes/contract';
import { instantInWords } from '../domain/dateWords.js';
import { refusedWith } from '../domain/refusalWording.js';
import { type DecisionCategory, decisionCategoryWords } from '../domain/decisionCategories.js';
import type { UsageAlert } from '../operator/operatorTypes.js';
import { mailMessage } from './mailMessage.js';
import type { MailMessage } from './mailer.js';

/**
 * The mails to a key's holder: the allowance at 80% and 100%, the expiry a week ahead, the
 * revocation or close, a roll, a plan change, a renewal. Both parts from mailMessage.ts; links from the
 * service's public address; instants in words (domain/dateWords.ts), never ISO timestamps.
 */

const count = (value: number) => value.toLocaleString('en-US');

/**
 * A key as pages and mails name it: its client and its id, which no roll changes (the secret's
 * prefix changes at every roll).
 */
export const keyTitle = (key: { readonly client: string; readonly id: string }) => `${key.client} (${key.id})`;

/** The key as its holder knows it (how the secret starts) beside the id the operator answers to. */
const keyName = (prefix: string, id: string) => `${prefix}... (${id})`;

/** When the allowance comes back: the period's end, or nothing when the key expires first. */
function resetSentence(alert: UsageAlert): string {
  if (alert.expiresAt !== null && alert.expiresAt <= alert.periodEnd)
    return `The key expires at ${instantInWords(alert.expiresAt)}: this allowance is the last it has.`;
  return `The allowance resets at ${instantInWords(alert.periodEnd)}.`;
}

/** The plans after this one in the contract's order: what the holder's page can ask for as larger. */
const largerPlansThan = (planId: string): string[] => {
  const plans = rules.plans.map((plan) => plan.id);
  const index = plans.indexOf(planId);
  return index < 0 ? [] : plans.slice(index + 1);
};

export function usageAlertMessage(alert: UsageAlert, baseUrl: string): MailMessage {
  if (!alert.email) throw new Error(`key ${alert.keyId} has no e-mail address`);
  const used = alert.threshold >= 100 ? 'has used all of' : `has used ${alert.percent}% of`;
  const key = keyName(alert.prefix, alert.keyId);
  const larger = largerPlansThan(alert.plan);
  return mailMessage(alert.email, `Quote Retrieval Service: key ${key} ${used} its allowance`, [
    'Hello,',
    `Your API key ${key}, for ${alert.client} on the ${alert.plan} plan, ${used} its allowance for the period from ${instantInWords(alert.periodStart)} until ${instantInWords(alert.periodEnd)}: ${count(alert.calls)} of ${count(alert.limit ?? 0)} calls.`,
    `${alert.threshold >= 100 ? `Further calls are ${refusedWith('allowance-exhausted')} until the allowance resets.` : `Calls beyond the allowance are ${refusedWith('allowance-exhausted')} until it resets.`} ${resetSentence(alert)}`,
    ...(larger.length === 0
      ? []
      : [
          [
            `To move to a larger plan (${larger.join(', ')}), ask for it on your account page: `,
            { link: `${baseUrl}/account` },
          ],
        ]),
    [
      'Your usage at any time: ',
      { code: `GET ${baseUrl}/v1/quotes-usage` },
      ' (free). API reference: ',
      { link: `${baseUrl}/docs` },
    ],
    ['You can turn these allowance mails off on your account page: ', { link: `${baseUrl}/account` }],
  ]);
}

export interface NoticeKey {
  readonly id: string;
  readonly prefix: string;
  readonly client: string;
  readonly plan: string;
  readonly email: string;
}

export function expiryNoticeMessage(key: NoticeKey, expiresAt: string, baseUrl: string): MailMessage {
  const name = keyName(key.prefix, key.id);
  const when = instantInWords(expiresAt);
  return mailMessage(key.email, `Quote Retrieval Service: key ${name} expires at ${when}`, [
    'Hello,',
    `Your API key ${name}, for ${key.client} on the ${key.plan} plan, expires at ${when}. From then on its calls are ${refusedWith('expired-api-key')}.`,
    [
      'To keep calling, ask for a renewal on your account page, ',
      { link: `${baseUrl}/account` },
      ', or reply to this message.',
    ],
    ['API reference: ', { link: `${baseUrl}/docs` }],
  ]);
}

/**
 * A key revoked by the operator, or closed by its holder on their page (category
 * `requested-by-holder`): the holder reads which, when, and where to act if it was not them.
 */
export function revocationMessage(
  key: NoticeKey,
  revokedAt: string,
  /** A decision category (domain/decisionCategories.ts): the holder reads its words, never the operator's. */
  category: string | null,
  operatorEmail: string | undefined,
  baseUrl: string,
): MailMessage {
  const name = keyName(key.prefix, key.id);
  const when = instantInWords(revokedAt);
  const refused = `From then on its calls are ${refusedWith('revoked-api-key')}.`;
  const write = operatorEmail === undefined ? 'reply to this message' : `write to the operator at ${operatorEmail}`;
  if (category === ('requested-by-holder' satisfies DecisionCategory))
    return mailMessage(key.email, `Quote Retrieval Service: key ${name} is closed`, [
      'Hello,',
      `Your API key ${name}, for ${key.client} on the ${key.plan} plan, was closed at ${when} at your request. ${refused}`,
      `If you did not ask for this, ${write} at once: someone may have signed in to your keys' page with a link mailed to this address. A closed key cannot be opened again; roll your other keys "at once" on that page:`,
      { link: `${baseUrl}/account` },
      ['To ask for a new key: ', { link: `${baseUrl}/keys/request` }],
    ]);
  return mailMessage(key.email, `Quote Retrieval Service: key ${name} is revoked`, [
    'Hello,',
    `Your API key ${name}, for ${key.client} on the ${key.plan} plan, was revoked at ${when}. ${refused}`,
    `The reason recorded: ${decisionCategoryWords(category)}.`,
    operatorEmail === undefined
      ? 'If you did not expect this, reply to this message.'
      : `If you did not expect this or want to know more, write to the operator at ${operatorEmail}.`,
    ['To ask for a new key: ', { link: `${baseUrl}/keys/request` }],
  ]);
}

export interface RollNotice {
  readonly key: NoticeKey;
  readonly rolledAt: string;
  /** The new secret's prefix: the holder recognises it; the secret itself is never mailed here. */
  readonly newPrefix: string;
  readonly previousSecretUntil: string | null;
  readonly previousSecretIs: 'replaced' | 'earlier' | null;
}

/** What a roll did and until when each old secret works, and where to act if the holder did not roll it. */
export function rollNoticeMessage(notice: RollNotice, baseUrl: string): MailMessage {
  const { key } = notice;
  const title = keyTitle(key);
  const until = notice.previousSecretUntil === null ? '' : instantInWords(notice.previousSecretUntil);
  const grace =
    notice.previousSecretIs === 'replaced'
      ? `The secret it replaced keeps working until ${until} (the grace chosen), then is ${refusedWith('invalid-api-key')}.`
      : notice.previousSecretIs === 'earlier'
        ? `The secret it replaced is refused from now on. The secret before that one keeps working until ${until}, the end of the grace it was given, then is ${refusedWith('invalid-api-key')}.`
        : `The secret it replaced is ${refusedWith('invalid-api-key')} from now on.`;
  return mailMessage(key.email, `Quote Retrieval Service: key ${title} has a new secret`, [
    'Hello,',
    `The secret of your API key ${title}, on the ${key.plan} plan, was replaced at ${instantInWords(notice.rolledAt)} on your account page. The new secret starts ${notice.newPrefix}...; it was shown once, on that page.`,
    grace,
    'If you did not do this, roll the key again "at once" on its page and reply to this message:',
    { link: `${baseUrl}/account/keys/${key.id}` },
  ]);
}

/** The operator moved a key to another plan: its holder reads what changed and where to see it. */
export function planChangedMessage(
  key: NoticeKey,
  change: { readonly from: string; readonly allowance: string; readonly expiresAt: string | null },
  baseUrl: string,
): MailMessage {
  const name = keyName(key.prefix, key.id);
  return mailMessage(key.email, `Quote Retrieval Service: key ${name} is now on the ${key.plan} plan`, [
    'Hello,',
    `The operator moved your API key ${name}, for ${key.client}, from the ${change.from} plan to the ${key.plan} plan: ${change.allowance}${change.expiresAt === null ? ', with no expiry' : `, valid until ${instantInWords(change.expiresAt)}`}. The key itself is unchanged: keep using it as before.`,
    ['Your keys, their plans and their use: ', { link: `${baseUrl}/account` }],
  ]);
}

/** The operator renewed a key: its holder reads the new expiry and where to see it. */
export function renewedMessage(key: NoticeKey, expiresAt: string, baseUrl: string): MailMessage {
  const name = keyName(key.prefix, key.id);
  return mailMessage(key.email, `Quote Retrieval Service: key ${name} is renewed`, [
    'Hello,',
    `The operator renewed your API key ${name}, for ${key.client}, on the ${key.plan} plan: it now works until ${instantInWords(expiresAt)}. The key itself is unchanged: keep using it as before.`,
    ['Your keys, their expiry and their use: ', { link: `${baseUrl}/account` }],
  ]);
}
