import { rules } from '@quotes/contract';
import { type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import { type ApiKeysTable, type Database, type NewApiKey, planRulesOfRow } from '@quotes/database';
import type { KeyOverrides, PlanRules } from '../domain/plans.js';
import { keyChangedChannel } from '@quotes/database';
import { inTransaction } from './transaction.js';

/** A key with its plan, as the request path and the operator see it (never the secret). */
export interface ApiKeyRecord {
  readonly id: string;
  readonly keyPrefix: string;
  readonly client: string;
  readonly email: string | null;
  readonly plan: PlanRules;
  readonly overrides: KeyOverrides;
  readonly status: 'active' | 'revoked';
  readonly revokedAt: Date | null;
  readonly revokedReason: string | null;
  readonly revokedCategory: string | null;
  readonly expiresAt: Date | null;
  readonly createdAt: Date;
  /** Browser origins the key may be used from (canonical, see domain/allowedOrigins.ts). */
  readonly allowedOrigins: readonly string[];
  /**
   * Set when the secret presented is a rolled key's previous one: it is accepted until then
   * (the holder's chosen grace), refused from then on as an unknown key.
   */
  readonly previousSecretUntil?: Date;
  /** Until when the previous secret works (a grace, possibly over), null when there is none. */
  readonly previousValidUntil: Date | null;
}

export function selectKeysWithPlans(db: Kysely<Database>) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('plans as p', 'p.id', 'k.plan_id')
    .select([
      'k.id',
      'k.key_prefix',
      'k.client',
      'k.email',
      'k.monthly_calls',
      'k.max_limit',
      'k.status',
      'k.revoked_at',
      'k.revoked_reason',
      'k.revoked_category',
      'k.expires_at',
      'k.created_at',
      'k.allowed_origins',
      'k.previous_valid_until',
      'p.id as plan_id',
      'p.monthly_calls as plan_monthly_calls',
      'p.filters_per_call',
      'p.max_limit as plan_max_limit',
      'p.faith_filter',
      'p.per_key_limits',
      'p.validity_days',
    ]);
}

type KeyWithPlanRow = Awaited<ReturnType<ReturnType<typeof selectKeysWithPlans>['executeTakeFirstOrThrow']>>;

export function toRecord(row: KeyWithPlanRow): ApiKeyRecord {
  return {
    id: row.id,
    keyPrefix: row.key_prefix,
    client: row.client,
    email: row.email,
    plan: {
      id: row.plan_id,
      monthlyCalls: row.plan_monthly_calls,
      filtersPerCall: row.filters_per_call,
      maxLimit: row.plan_max_limit,
      faithFilter: row.faith_filter,
      perKeyLimits: row.per_key_limits,
      validityDays: row.validity_days,
      requestsPerSecond: rules.planById.get(row.plan_id)?.requestsPerSecond ?? null,
      selfService: rules.planById.get(row.plan_id)?.selfService ?? false,
      allowancePeriod: rules.planById.get(row.plan_id)?.allowancePeriod ?? 'month',
      price: rules.planById.get(row.plan_id)?.price ?? null,
    },
    overrides: { monthlyCalls: row.monthly_calls, maxLimit: row.max_limit },
    status: row.status,
    revokedAt: row.revoked_at,
    revokedReason: row.revoked_reason,
    revokedCategory: row.revoked_category,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    allowedOrigins: row.allowed_origins,
    previousValidUntil: row.previous_valid_until,
  };
}

export async function findKeyByHash(db: Kysely<Database>, keyHash: Buffer): Promise<ApiKeyRecord | undefined> {
  const row = await selectKeysWithPlans(db).where('k.key_hash', '=', keyHash).executeTakeFirst();
  return row && toRecord(row);
}

/**
 * The keys among these hashes, by hash (hex): one statement for a whole batch of look-ups. A
 * hash that is a rolled key's previous secret finds the key marked with the end of its grace.
 */
export async function findKeysByHashes(db: Kysely<Database>, keyHashes: Buffer[]): Promise<Map<string, ApiKeyRecord>> {
  const found = new Map<string, ApiKeyRecord>();
  if (keyHashes.length === 0) return found;
  const rows = await selectKeysWithPlans(db)
    .select(['k.key_hash', 'k.previous_key_hash', 'k.previous_valid_until'])
    .where((eb) => eb.or([eb('k.key_hash', 'in', keyHashes), eb('k.previous_key_hash', 'in', keyHashes)]))
    .execute();
  const asked = new Set(keyHashes.map((hash) => hash.toString('hex')));
  for (const row of rows) {
    const current = Buffer.from(row.key_hash).toString('hex');
    if (asked.has(current)) found.set(current, toRecord(row));
    const previous = row.previous_key_hash && Buffer.from(row.previous_key_hash).toString('hex');
    if (previous && row.previous_valid_until && asked.has(previous))
      found.set(previous, { ...toRecord(row), previousSecretUntil: row.previous_valid_until });
  }
  return found;
}

export async function findKeyById(db: Kysely<Database>, id: string): Promise<ApiKeyRecord | undefined> {
  const row = await selectKeysWithPlans(db).where('k.id', '=', id).executeTakeFirst();
  return row && toRecord(row);
}

export async function listKeys(db: Kysely<Database>): Promise<ApiKeyRecord[]> {
  const rows = await selectKeysWithPlans(db).orderBy('k.created_at').orderBy('k.id').execute();
  return rows.map(toRecord);
}

export async function countKeys(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertKey(db: Kysely<Database>, key: NewApiKey): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

export async function findPlan(db: Kysely<Database>, planId: string): Promise<PlanRules | undefined> {
  const row = await db.selectFrom('plans').selectAll().where('id', '=', planId).executeTakeFirst();
  return row && planRulesOfRow(row);
}

/** Every process caching this key drops it when the change commits (NOTIFY is transactional). */
export async function announceKeyChange(trx: Transaction<Database>, id: string): Promise<void> {
  await sql`SELECT pg_notify(${keyChangedChannel}, ${id})`.execute(trx);
}

/** Changes an active key and tells every server, in one transaction; false when no active key has that id. */
export async function updateActiveKey(
  db: Kysely<Database>,
  id: string,
  changes: Updateable<ApiKeysTable>,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('api_keys')
      .set(changes)
      .where('id', '=', id)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await announceKeyChange(trx, id);
    return true;
  });
}

/**
 * Gives an active key a new secret; the one it had keeps working until `previousValidUntil`
 * (null: refused from the commit on). A secret rolled again within its grace drops the oldest.
 */
export async function rollSecret(
  db: Kysely<Database>,
  id: string,
  secret: { hash: Buffer; prefix: string },
  at: Date,
  read: { previousValidUntil: Date | null },
  grace: { keep: 'none' | 'current' | 'previous'; until?: Date },
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('api_keys')
      .set((eb) => ({
        key_hash: secret.hash,
        key_prefix: secret.prefix,
        secret_rolled_at: at,
        ...(grace.keep === 'previous'
          ? {}
          : {
              previous_key_hash: grace.keep === 'none' ? null : eb.ref('key_hash'),
              previous_valid_until: grace.keep === 'none' ? null : (grace.until ?? null),
            }),
      }))
      .where('id', '=', id)
      .where('status', '=', 'active')
      // The grace decided from what was read: a roll in between makes this one fail, not cut it.
      .where((eb) =>
        read.previousValidUntil === null
          ? eb('previous_valid_until', 'is', null)
          : eb('previous_valid_until', '=', read.previousValidUntil),
      )
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await announceKeyChange(trx, id);
    return true;
  });
}

/** Revokes an active key with the holder's category and the operator's words; false when unknown or already revoked. */
export function revokeKey(
  db: Kysely<Database>,
  id: string,
  decision: { readonly category: string; readonly reason: string | null },
  at: Date,
): Promise<boolean> {
  return updateActiveKey(db, id, {
    status: 'revoked',
    revoked_at: at,
    revoked_reason: decision.reason,
    revoked_category: decision.category,
  });
}

/** Sets a new expiry on an active key; false when the key is unknown or revoked. */
export function renewKey(db: Kysely<Database>, id: string, until: Date): Promise<boolean> {
  return updateActiveKey(db, id, { expires_at: until });
}

/** The browser origins each of these keys allows (keys that do not exist are left out). */
export async function allowedOriginsOfKeys(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, readonly string[]>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('api_keys').select(['id', 'allowed_origins']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.allowed_origins]));
}
