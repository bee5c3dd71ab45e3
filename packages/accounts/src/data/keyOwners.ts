import { type Kysely, sql } from 'kysely';
import type { Database, NewApiKey } from '@quotes/database';
import { type ApiKeyRecord, announceKeyChange, selectKeysWithPlans, toRecord } from './apiKeys.js';
import { inTransaction } from './transaction.js';

/**
 * Keys by the person and client they belong to. Addresses and client names are compared in the
 * canonical form the database computes (canonical_email, canonical_client: migration
 * 20261123T1600), so `Ann+x@Example.com` and `ann@example.com` are one person.
 */

export type KeyState = 'active' | 'expired' | 'revoked';

export interface KeyFilter {
  readonly email?: string;
  readonly client?: string;
  readonly plan?: string;
  readonly state?: KeyState;
}

/** Keys in a state at `now` ('expired' is derived from the clock; the stored status is active or revoked). */
export function whereState<Query extends ReturnType<typeof selectKeysWithPlans>>(
  query: Query,
  state: KeyState | undefined,
  now: Date,
): Query {
  if (state === 'revoked') return query.where('k.status', '=', 'revoked') as Query;
  if (state === 'expired') return query.where('k.status', '=', 'active').where('k.expires_at', '<=', now) as Query;
  if (state === 'active')
    return query
      .where('k.status', '=', 'active')
      .where((eb) => eb.or([eb('k.expires_at', 'is', null), eb('k.expires_at', '>', now)])) as Query;
  return query;
}

export async function findKeys(db: Kysely<Database>, filter: KeyFilter, now: Date): Promise<ApiKeyRecord[]> {
  let query = selectKeysWithPlans(db);
  if (filter.email !== undefined)
    query = query.where(sql<boolean>`k.email_canonical = canonical_email(${filter.email})`);
  if (filter.client !== undefined)
    query = query.where(sql<boolean>`k.client_canonical = canonical_client(${filter.client})`);
  if (filter.plan !== undefined) query = query.where('k.plan_id', '=', filter.plan);
  query = whereState(query, filter.state, now);
  const rows = await query.orderBy('k.created_at').orderBy('k.id').execute();
  return rows.map(toRecord);
}

/**
 * The one lock every trial decision is taken under (person, client, network): held to the end of
 * the caller's transaction; taken again in the same transaction it is already held.
 */
export async function lockTrialDecisions(db: Kysely<Database>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('quotes:trial-keys'))`.execute(db);
}

/**
 * Inserts a key unless it is a trial and the same person (canonical address) or client already
 * had a trial issued since `since`. Trials are issued under one advisory lock, so two requests
 * at once cannot both pass the check. Returns the earlier trial that refused it, if any.
 */
export async function insertKeyUnlessTrialTaken(
  db: Kysely<Database>,
  key: NewApiKey,
  trial: { readonly since: Date; readonly allowAnother: boolean } | null,
): Promise<ApiKeyRecord | undefined> {
  return inTransaction(db, async (trx) => {
    if (trial !== null) {
      await lockTrialDecisions(trx);
      if (!trial.allowAnother) {
        const earlier = await selectKeysWithPlans(trx)
          .where('k.plan_id', '=', key.plan_id)
          .where('k.created_at', '>', trial.since)
          .where((eb) =>
            eb.or([
              sql<boolean>`k.client_canonical = canonical_client(${key.client})`,
              ...(key.email ? [sql<boolean>`k.email_canonical = canonical_email(${key.email})`] : []),
            ]),
          )
          .orderBy('k.created_at', 'desc')
          .executeTakeFirst();
        if (earlier) return toRecord(earlier);
      }
    }
    await trx.insertInto('api_keys').values(key).execute();
    return undefined;
  });
}

/** Revokes every active key of a person or client in one transaction; each server hears of each. */
export async function revokeKeysOf(
  db: Kysely<Database>,
  owner: { readonly email?: string; readonly client?: string },
  decision: { readonly category: string; readonly reason: string | null },
  at: Date,
): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    const rows = await trx
      .updateTable('api_keys')
      .set({ status: 'revoked', revoked_at: at, revoked_reason: decision.reason, revoked_category: decision.category })
      .where('status', '=', 'active')
      .where((eb) =>
        eb.or([
          ...(owner.email !== undefined ? [sql<boolean>`email_canonical = canonical_email(${owner.email})`] : []),
          ...(owner.client !== undefined ? [sql<boolean>`client_canonical = canonical_client(${owner.client})`] : []),
        ]),
      )
      .returning('id')
      .execute();
    const ids = rows.map((row) => row.id).sort();
    for (const id of ids) await announceKeyChange(trx, id);
    return ids;
  });
}

export interface KeyOwner {
  /** The address as last given (the canonical form decides who is the same person). */
  readonly email: string;
  readonly clients: readonly string[];
  readonly keyIds: readonly string[];
}

/** Everyone holding an active, unexpired key, each address once. */
export async function activeKeyOwners(db: Kysely<Database>, now: Date): Promise<KeyOwner[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'email', 'email_canonical', 'client'])
    .where('status', '=', 'active')
    .where('email_canonical', 'is not', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  const owners = new Map<string, { email: string; clients: Set<string>; keyIds: string[] }>();
  for (const row of rows) {
    const canonical = row.email_canonical!;
    let owner = owners.get(canonical);
    if (!owner) {
      owner = { email: row.email!, clients: new Set(), keyIds: [] };
      owners.set(canonical, owner);
    }
    owner.clients.add(row.client);
    owner.keyIds.push(row.id);
  }
  return [...owners.values()]
    .map((owner) => ({ email: owner.email, clients: [...owner.clients], keyIds: owner.keyIds }))
    .sort((a, b) => a.email.localeCompare(b.email));
}

/**
 * Claims the signs of broken terms of a month not mailed before (once per key, signal and month);
 * returns those claimed, each `keyId signal`. A run at the same time waits on the rows and gets none.
 */
export async function claimSignalAlerts(
  db: Kysely<Database>,
  monthKey: string,
  signals: readonly { subject: string; signal: string }[],
  at: Date,
): Promise<Set<string>> {
  if (signals.length === 0) return new Set();
  const rows = await db
    .insertInto('usage_signal_alerts')
    // key_id holds the finding's subject: a key, or for rotated trials the network.
    .values(signals.map((signal) => ({ key_id: signal.subject, month: monthKey, signal: signal.signal, sent_at: at })))
    .onConflict((oc) => oc.doNothing())
    .returning(['key_id', 'signal'])
    .execute();
  return new Set(rows.map((row) => `${row.key_id} ${row.signal}`));
}
