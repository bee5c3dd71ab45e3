import { rules } from '@quotes/contract';
import { instantInWords } from '../domain/dateWords.js';
import { expiryText } from '../domain/keyExpiry.js';
import { refusedWith } from '../domain/refusalWording.js';
import { decisionCategoryWords } from '../domain/decisionCategories.js';
import type { UsageAlert } from '../operator/operatorTypes.js';
import { message, withHtml } from './keyRequestMessages.js';
import type { MailMessage } from './mailer.js';

/**
 * The mails to a key's holder: the allowance at 80% and 100%, the expiry a week ahead, the
 * revocation. Plain text and HTML (withHtml escapes); links from the service's public address.
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
  return withHtml({
    to: alert.email,
    subject: `Quote Retrieval Service: key ${key} ${used} its allowance`,
    text: [
      'Hello,',
      `Your API key ${key}, for ${alert.client} on the ${alert.plan} plan, ${used} its allowance for the period from ${instantInWords(alert.periodStart)} until ${instantInWords(alert.periodEnd)}: ${count(alert.calls)} of ${count(alert.limit ?? 0)} calls.`,
      `${alert.threshold >= 100 ? `Further calls are ${refusedWith('allowance-exhausted')} until the allowance resets.` : `Calls beyond the allowance are ${refusedWith('allowance-exhausted')} until it resets.`} ${resetSentence(alert)}`,
      ...(larger.length === 0
        ? []
        : [`To move to a larger plan (${larger.join(', ')}), ask for it on your account page: ${baseUrl}/account`]),
      `Your usage at any time: GET ${baseUrl}/v1/quotes-usage (free). API reference: ${baseUrl}/docs`,
      `You can turn these allowance mails off on your account page: ${baseUrl}/account`,
    ].join('\n\n'),
  });
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
  return withHtml({
    to: key.email,
    subject: `Quote Retrieval Service: key ${name} expires at ${expiresAt}`,
    text: [
      'Hello,',
      `Your API key ${name}, for ${key.client} on the ${key.plan} plan, expires at ${expiryText(expiresAt)}. From then on its calls are ${refusedWith('expired-api-key')}.`,
      `To keep calling, ask for a renewal on your account page, ${baseUrl}/account, or reply to this message.`,
      `API reference: ${baseUrl}/docs`,
    ].join('\n\n'),
  });
}

export function revocationMessage(
  key: NoticeKey,
  revokedAt: string,
  /** A decision category (domain/decisionCategories.ts): the holder reads its words, never the operator's. */
  category: string | null,
  operatorEmail: string | undefined,
  baseUrl: string,
): MailMessage {
  const name = keyName(key.prefix, key.id);
  const contact =
    operatorEmail === undefined
      ? 'If you did not expect this, reply to this message.'
      : `If you did not expect this or want to know more, write to the operator at ${operatorEmail}.`;
  return withHtml({
    to: key.email,
    subject: `Quote Retrieval Service: key ${name} is revoked`,
    text: [
      'Hello,',
      `Your API key ${name}, for ${key.client} on the ${key.plan} plan, was revoked at ${revokedAt}. From then on its calls are ${refusedWith('revoked-api-key')}.`,
      `The reason recorded: ${decisionCategoryWords(category)}.`,
      contact,
      `To ask for a new key: ${baseUrl}/keys/request`,
    ].join('\n\n'),
  });
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
  const grace =
    notice.previousSecretIs === 'replaced'
      ? `The secret it replaced keeps working until ${notice.previousSecretUntil} (the grace chosen), then is ${refusedWith('invalid-api-key')}.`
      : notice.previousSecretIs === 'earlier'
        ? `The secret it replaced is refused from now on. The secret before that one keeps working until ${notice.previousSecretUntil}, the end of the grace it was given, then is ${refusedWith('invalid-api-key')}.`
        : `The secret it replaced is ${refusedWith('invalid-api-key')} from now on.`;
  return message(key.email, `Quote Retrieval Service: key ${title} has a new secret`, [
    'Hello,',
    `The secret of your API key ${title}, on the ${key.plan} plan, was replaced at ${notice.rolledAt} on your account page. The new secret starts ${notice.newPrefix}...; it was shown once, on that page.`,
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
  return withHtml({
    to: key.email,
    subject: `Quote Retrieval Service: key ${name} is now on the ${key.plan} plan`,
    text: [
      'Hello,',
      `The operator moved your API key ${name}, for ${key.client}, from the ${change.from} plan to the ${key.plan} plan: ${change.allowance}${change.expiresAt === null ? ', with no expiry' : `, valid until ${expiryText(change.expiresAt)}`}. The key itself is unchanged: keep using it as before.`,
      `Your keys, their plans and their use: ${baseUrl}/account`,
    ].join('\n\n'),
  });
}
