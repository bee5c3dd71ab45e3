import type { KeyRequestKind } from '@quotes/database';
import { instantInWords } from '../domain/dateWords.js';
import { decisionCategoryWords } from '../domain/decisionCategories.js';
import { mailMessage } from './mailMessage.js';
import type { MailMessage } from './mailer.js';

/**
 * The mail of the holders' page: the sign-in link, and the operator's decision on a plan change
 * or renewal a holder asked for. Plain text and HTML from the same paragraphs (escaped).
 */

export function signInMessage(to: string, link: string, validMinutes: number): MailMessage {
  return mailMessage(to, 'Sign in to your Quote Retrieval Service keys', [
    'Hello,',
    `Someone asked to sign in to the page of the API keys held by this address. To sign in, open the link below and press "Sign in" (the link works once, for ${validMinutes} minutes):`,
    { link },
    'If you did not ask, ignore this message: nobody can sign in without the link.',
  ]);
}

const asked: Record<Exclude<KeyRequestKind, 'key'>, string> = {
  'plan-change': 'a change of plan',
  renewal: 'a renewal',
};

export interface HolderDecision {
  readonly to: string;
  readonly requestId: string;
  readonly kind: Exclude<KeyRequestKind, 'key'>;
  readonly keyPrefix: string;
  readonly accountUrl: string;
}

export function holderApprovedMessage(
  decision: HolderDecision,
  outcome: { plan: string; expiresAt: string | null },
): MailMessage {
  return mailMessage(decision.to, `Your request ${decision.requestId} is approved`, [
    'Hello,',
    `The operator approved your request ${decision.requestId} for ${asked[decision.kind]} of the key ${decision.keyPrefix}…: it is now on the ${outcome.plan} plan${outcome.expiresAt ? `, valid until ${instantInWords(outcome.expiresAt)}` : ', with no expiry'}. The key itself is unchanged.`,
    'Your keys and their use:',
    { link: decision.accountUrl },
  ]);
}

/** `category`: a decision category (domain/decisionCategories.ts); its words are mailed, never the operator's. */
export function holderRejectedMessage(decision: HolderDecision, category: string): MailMessage {
  return mailMessage(decision.to, `Your request ${decision.requestId} is not granted`, [
    'Hello,',
    `The operator did not grant your request ${decision.requestId} for ${asked[decision.kind]} of the key ${decision.keyPrefix}…. The reason recorded: ${decisionCategoryWords(category)}.`,
    'The key itself is unchanged. Reply to this message if you think this is a mistake.',
    { link: decision.accountUrl },
  ]);
}
