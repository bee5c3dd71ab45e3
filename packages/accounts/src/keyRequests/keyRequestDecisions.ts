import { rules } from '@quotes/contract';
import type { Database } from '@quotes/database';
import { checkTextField } from '@quotes/text-rules';
import type { Kysely } from 'kysely';
import MailChecker from 'mailchecker';
import { lockTrialDecisions } from '../data/keyOwners.js';
import {
  claimToken,
  type KeyRequestRow,
  networkTrialSince,
  setWaitingReasons,
  settleRequest,
} from '../data/keyRequests.js';
import { isoSeconds } from '../domain/calendarMonth.js';
import {
  networkLookbackDays,
  personTrialReasonForHolder,
  waitingReasons,
  waitingReasonsForHolder,
} from '../domain/keyRequestDecision.js';
import {
  type CreateKeyInput,
  type IssuedKey,
  type OperatorApi,
  OperatorError,
  TrialTakenError,
} from '../operator/operatorApi.js';
import { clientNameMaxCharacters, requireEmail } from '../operator/operatorInput.js';
import { keyRequestTextFields } from './keyRequestFields.js';

/**
 * What becomes of a request once its address is confirmed or the operator approves it, each
 * decided inside one transaction: the token's use, every trial rule (person, client, network,
 * disposable domain) under the one lock trial keys are issued under, the key, the request's new
 * state and the audit commit together, so no two confirmations at once grant two trials where
 * one is allowed, and a failure leaves the link as it was rather than a request half decided.
 */

const dayMs = 86_400_000;

/**
 * The key's client: the application and who asked for it, as `keys list` shows it and the
 * one-trial rule compares it; cut to the length a client name holds (the request keeps both whole).
 */
export function clientOf(row: Pick<KeyRequestRow, 'application' | 'name'>): string {
  const whole = [...`${row.application} (${row.name})`];
  return whole.length <= clientNameMaxCharacters
    ? whole.join('')
    : `${whole.slice(0, clientNameMaxCharacters - 2).join('')}…)`;
}

/** The domain of an address when it is on the maintained list of disposable-mail domains (mailchecker). */
function disposableDomainOf(email: string): string | null {
  return MailChecker.isValid(email) ? null : (email.split('@')[1] ?? email).toLowerCase();
}

/**
 * Why a stored request cannot become a key, if it cannot: text the form's rule refuses (kept
 * before the rule was the form's), in words that name the field and the character, never the text.
 */
export function unusableTextOf(row: KeyRequestRow): string | undefined {
  for (const field of ['name', 'application', 'use'] as const) {
    const checked = checkTextField(row[field], keyRequestTextFields[field]);
    if ('refused' in checked) return `the ${field} ${checked.message}`;
  }
  try {
    requireEmail(row.email);
  } catch {
    return 'the e-mail address is not one mail can be sent to';
  }
  return undefined;
}

/** Creates the key and settles the request inside the caller's transaction; a trial the person or client had refuses it. */
export async function issueWithin(
  atomic: OperatorApi,
  trx: Kysely<Database>,
  row: KeyRequestRow,
  grant: Pick<CreateKeyInput, 'plan' | 'allowAnotherTrial' | 'monthlyCalls' | 'unlimited' | 'maxLimit'>,
  now: Date,
): Promise<IssuedKey | { refused: string }> {
  const { plan } = grant;
  let created: IssuedKey;
  try {
    // The key action holds every plan rule (a per-key plan's allowance chosen): an approval cannot skip one.
    created = await atomic.createKey({ ...grant, client: clientOf(row), email: row.email });
  } catch (error) {
    if (!(error instanceof TrialTakenError)) throw error;
    const earlier = error.earlier;
    return {
      refused: `one trial per person: ${earlier.email ?? earlier.client} already had trial key ${earlier.id} (issued ${isoSeconds(earlier.createdAt)})`,
    };
  }
  if (!(await settleRequest(trx, row.id, { status: 'approved', keyId: created.id, planId: plan }, now)))
    throw new OperatorError(`request ${row.id} was settled meanwhile`, 'conflict');
  // The operator's approval or the service's own grant: the actor of the operator API says which.
  await atomic.recordAction({
    action: 'requests approve',
    target: row.id,
    keyId: created.id,
    before: { status: row.status, plan: row.plan_id, email: row.email },
    after: { status: 'approved', plan, keyId: created.id },
  });
  return created;
}

export type Decision =
  | { readonly outcome: 'invalid' }
  | { readonly outcome: 'granted'; readonly id: string; readonly issued: IssuedKey }
  /** `holderReasons`: why it waits, in words the person who asked may read (never another's data). */
  | { readonly outcome: 'waiting'; readonly id: string; readonly holderReasons: readonly string[] }
  | { readonly outcome: 'unusable'; readonly id: string; readonly reason: string };

/**
 * Uses a token and decides its request in one transaction: granted (a self-service plan whose
 * checks pass), waiting for the operator with every reason in words, or, when its stored text is
 * one no later step accepts, rejected with that reason (never left pending for nobody).
 */
export async function confirmAndDecide(operator: OperatorApi, tokenHash: Buffer, now: Date): Promise<Decision> {
  return operator.atomically(async (atomic, trx) => {
    const claimed = await claimToken(trx, tokenHash, now);
    if (!claimed) return { outcome: 'invalid' };
    const unusable = unusableTextOf(claimed);
    if (unusable !== undefined) {
      const reason = `the request cannot become a key: ${unusable}`;
      await settleRequest(trx, claimed.id, { status: 'rejected', category: 'request-unusable', reason }, now);
      await atomic.recordAction({
        action: 'requests reject',
        target: claimed.id,
        before: { status: claimed.status, plan: claimed.plan_id, email: claimed.email },
        after: { status: 'rejected' },
        reason,
      });
      return { outcome: 'unusable', id: claimed.id, reason: unusable };
    }
    const planRules = rules.planById.get(claimed.plan_id);
    const trial = planRules?.validityDays != null;
    // Held to the commit: the network's earlier trial is read, and this one granted, by one confirmation at a time.
    if (trial) await lockTrialDecisions(trx);
    const earlierOnNetwork = trial
      ? await networkTrialSince(
          trx,
          claimed.client_network,
          claimed.plan_id,
          new Date(now.getTime() - networkLookbackDays * dayMs),
          claimed.id,
        )
      : undefined;
    const facts = {
      plan: claimed.plan_id,
      selfService: planRules?.selfService ?? false,
      disposableDomain: disposableDomainOf(claimed.email),
      networkTrial: earlierOnNetwork
        ? {
            network: claimed.client_network,
            requestId: earlierOnNetwork.id,
            grantedAt: isoSeconds(earlierOnNetwork.decided_at ?? earlierOnNetwork.created_at),
          }
        : null,
    };
    const reasons = waitingReasons(facts);
    const holderReasons = waitingReasonsForHolder(facts);
    if (reasons.length === 0) {
      const granted = await issueWithin(atomic, trx, claimed, { plan: claimed.plan_id, allowAnotherTrial: false }, now);
      if (!('refused' in granted)) return { outcome: 'granted', id: claimed.id, issued: granted };
      reasons.push(granted.refused);
      holderReasons.push(personTrialReasonForHolder);
    }
    await setWaitingReasons(trx, claimed.id, reasons);
    return { outcome: 'waiting', id: claimed.id, holderReasons };
  });
}
