import type { KeyRequestKind } from '@quotes/database';
import { findKeyRequest, type KeyRequestRow, settleRequest } from '../data/keyRequests.js';
import type { Clock } from '../domain/clock.js';
import type { DecisionCategory } from '../domain/decisionCategories.js';
import { type HolderDecision, holderApprovedMessage, holderRejectedMessage } from '../mail/accountMessages.js';
import type { Delivery, Mailer } from '../mail/mailer.js';
import { type AllowanceChoice, allowanceOf } from '../operator/operatorInput.js';
import { type KeyView, type OperatorApi, OperatorError } from '../operator/operatorApi.js';

/** How far a renewal takes a key: a year from its expiry, or from now when that is later. */
export const renewalDays = 365;
const dayMs = 86_400_000;

export const isHolderRequest = (row: KeyRequestRow): row is KeyRequestRow & { kind: Exclude<KeyRequestKind, 'key'> } =>
  row.kind !== 'key';

function decisionOf(row: KeyRequestRow, key: KeyView, baseUrl: string): HolderDecision {
  return {
    to: row.email,
    requestId: row.id,
    kind: row.kind as Exclude<KeyRequestKind, 'key'>,
    keyPrefix: key.prefix,
    accountUrl: `${baseUrl}/account`,
  };
}

/**
 * Approves a holder's plan change (the key moves to the plan asked for, or the operator's) or
 * renewal (a year more), through the operator's own actions, with the request settled and
 * audited in the same transaction; the holder hears of it by mail.
 */
export async function approveHolderRequest(
  operator: OperatorApi,
  row: KeyRequestRow,
  options: AllowanceChoice & { plan?: string; send: boolean; maxLimit?: number | null },
  context: { mailer: Mailer; baseUrl: string; clock: Clock },
): Promise<{ key: KeyView; delivery: Delivery | null }> {
  const keyId = row.for_key_id;
  if (!keyId) throw new OperatorError(`request ${row.id} names no key`, 'failed');
  const key = await operator.atomically(async (atomic, trx) => {
    let changed: KeyView;
    if (row.kind === 'plan-change') {
      // The key action holds every plan rule (a per-key plan's allowance chosen): an approval cannot skip one.
      changed = await atomic.changePlan(keyId, {
        plan: options.plan ?? row.plan_id,
        monthlyCalls: allowanceOf(options).monthlyCalls,
        unlimited: options.unlimited,
        maxLimit: options.maxLimit,
        allowAnotherTrial: true,
      });
    } else {
      const current = await atomic.showKey(keyId);
      const from = Math.max(context.clock().getTime(), current.expiresAt ? Date.parse(current.expiresAt) : 0);
      changed = await atomic.renewKey(keyId, new Date(from + renewalDays * dayMs));
    }
    if (!(await settleRequest(trx, row.id, { status: 'approved', keyId, planId: changed.plan }, context.clock())))
      throw new OperatorError(`request ${row.id} was settled meanwhile`, 'conflict');
    await atomic.recordAction({
      action: 'requests approve',
      target: row.id,
      keyId,
      before: { status: row.status, kind: row.kind, plan: row.plan_id },
      after: { status: 'approved', plan: changed.plan, expiresAt: changed.expiresAt },
    });
    return changed;
  });
  const delivery = options.send
    ? await context.mailer.send(
        holderApprovedMessage(decisionOf(row, key, context.baseUrl), { plan: key.plan, expiresAt: key.expiresAt }),
      )
    : null;
  return { key, delivery };
}

/** Rejects a holder's request, audited with the operator's reason; the holder is mailed the category's words unless `send` is false. */
export async function rejectHolderRequest(
  operator: OperatorApi,
  row: KeyRequestRow,
  decision: { readonly category: DecisionCategory; readonly reason: string | null },
  context: { mailer: Mailer; baseUrl: string; clock: Clock },
  send = true,
): Promise<{ row: KeyRequestRow; delivery: Delivery | null }> {
  const keyId = row.for_key_id;
  if (!keyId) throw new OperatorError(`request ${row.id} names no key`, 'failed');
  const settled = await operator.atomically(async (atomic, trx) => {
    if (!(await settleRequest(trx, row.id, { status: 'rejected', ...decision }, context.clock())))
      throw new OperatorError(`request ${row.id} was settled meanwhile`, 'conflict');
    await atomic.recordAction({
      action: 'requests reject',
      target: row.id,
      keyId,
      before: { status: row.status, kind: row.kind, plan: row.plan_id },
      after: { status: 'rejected', category: decision.category },
      reason: decision.reason,
    });
    return (await findKeyRequest(trx, row.id))!;
  });
  if (!send) return { row: settled, delivery: null };
  const key = await operator.showKey(keyId);
  const delivery = await context.mailer.send(
    holderRejectedMessage(decisionOf(row, key, context.baseUrl), decision.category),
  );
  return { row: settled, delivery };
}
