import { type Kysely, sql } from 'kysely';
import type { Database, KeyRequestKind } from '@quotes/database';

/** A holder's request about a key they hold (a plan change, a renewal): in the operator's queue, pending at once. */
export interface NewHolderRequest {
  readonly id: string;
  readonly kind: Exclude<KeyRequestKind, 'key'>;
  readonly forKeyId: string;
  readonly email: string;
  readonly client: string;
  readonly planId: string;
  readonly reason: string;
  readonly clientAddress: string;
  readonly clientNetwork: string;
}

/** Why a holder's request waits: the operator decides every one. */
export const holderRequestWaits = "asked by the key's holder from their page: the operator decides";

/**
 * Records the request, or returns false when one for the same key is already waiting (the
 * partial unique index on pending requests decides between two at once). The index's predicate
 * is written as a literal: under the servers' generic plans a parameter cannot be matched to it
 * (PostgreSQL 42P10).
 */
export async function insertHolderRequest(
  db: Kysely<Database>,
  request: NewHolderRequest,
  now: Date,
): Promise<boolean> {
  const inserted = await db
    .insertInto('key_requests')
    .values({
      id: request.id,
      kind: request.kind,
      for_key_id: request.forKeyId,
      email: request.email,
      // The key's client: the operator sees which application the request is about.
      name: request.client.slice(0, 200),
      application: request.client.slice(0, 200),
      plan_id: request.planId,
      use: request.reason,
      client_address: request.clientAddress,
      client_network: request.clientNetwork,
      status: 'pending',
      reasons: [holderRequestWaits],
      token_hash: null,
      token_expires_at: now,
      created_at: now,
      confirmed_at: now,
    })
    .onConflict((conflict) => conflict.column('for_key_id').where('status', '=', sql.lit('pending')).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The holder's requests about these keys, newest first. */
export async function holderRequestsOf(db: Kysely<Database>, keyIds: readonly string[]) {
  if (keyIds.length === 0) return [];
  return db
    .selectFrom('key_requests')
    .select(['id', 'kind', 'for_key_id', 'plan_id', 'status', 'created_at', 'decided_at', 'rejection_category'])
    .where('for_key_id', 'in', keyIds)
    .orderBy('created_at', 'desc')
    .limit(50)
    .execute();
}

/** Why a holder's request waiting on a key that is revoked or closed is settled without a decision. */
export const keyClosedBeforeDecision = 'the key was closed before a decision';

/**
 * Settles the holders' requests still waiting on these keys (each just revoked or closed, in the
 * same transaction): nothing is left in the operator's queue about a key that no longer works.
 */
export async function settleRequestsOfClosedKeys(
  db: Kysely<Database>,
  keyIds: readonly string[],
  now: Date,
): Promise<number> {
  if (keyIds.length === 0) return 0;
  const settled = await db
    .updateTable('key_requests')
    .set({
      status: 'rejected',
      decided_at: now,
      rejection_category: 'key-closed',
      rejection_reason: keyClosedBeforeDecision,
    })
    .where('for_key_id', 'in', keyIds)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(settled.numUpdatedRows);
}
