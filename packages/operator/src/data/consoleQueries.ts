import { type Kysely, sql } from 'kysely';
import type { Database } from '@quotes/database';
import type { ApiKeyRecord } from '@quotes/accounts';
import { selectKeysWithPlans, toRecord } from '@quotes/accounts';
import { type KeyState, whereState } from '@quotes/accounts';
import { type StoredAuditEntry, storedAuditEntry } from '@quotes/accounts';

/**
 * The operator console's reads across keys: the busiest keys, a
 * searchable and paged key list, a paged audit and the corpus. Reads only: every change the
 * console makes goes through the operator API.
 */

/** The busiest keys by served calls in [from, to), with their client and displayed prefix. */
export async function busiestKeys(
  db: Kysely<Database>,
  range: { from: Date; to: Date },
  limit: number,
): Promise<{ keyId: string; client: string; prefix: string; plan: string; calls: number }[]> {
  const rows = await db
    .selectFrom('usage_history as h')
    .innerJoin('api_keys as k', 'k.id', 'h.key_id')
    .select(['k.id', 'k.client', 'k.key_prefix', 'k.plan_id', sql<string>`sum(h.calls)::text`.as('calls')])
    .where('h.outcome', '=', 'served')
    .where('h.period_start', '>=', range.from)
    .where('h.period_start', '<', range.to)
    .groupBy(['k.id', 'k.client', 'k.key_prefix', 'k.plan_id'])
    .orderBy(sql`sum(h.calls)`, 'desc')
    .orderBy('k.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    keyId: row.id,
    client: row.client,
    prefix: row.key_prefix,
    plan: row.plan_id,
    calls: Number(row.calls),
  }));
}

export interface KeySearch {
  /** Substring of the address, case-insensitive. */
  email?: string;
  /** Substring of the client name, case-insensitive. */
  client?: string;
  /** The start of the displayed prefix (`qk_...`) or of the id (`k_...`). */
  prefix?: string;
  plan?: string;
  state?: KeyState;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;

/** Keys matching every criterion given, newest first, one page of them and how many match in all. */
export async function searchKeys(
  db: Kysely<Database>,
  search: KeySearch,
  now: Date,
  page: { limit: number; offset: number },
): Promise<{ keys: ApiKeyRecord[]; total: number }> {
  let query = selectKeysWithPlans(db);
  if (search.email) query = query.where(sql<boolean>`k.email ILIKE ${likePattern(search.email)}`);
  if (search.client) query = query.where(sql<boolean>`k.client ILIKE ${likePattern(search.client)}`);
  if (search.prefix) {
    const start = `${search.prefix.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
    query = query.where((eb) => eb.or([eb('k.key_prefix', 'like', start), eb('k.id', 'like', start)]));
  }
  if (search.plan) query = query.where('k.plan_id', '=', search.plan);
  query = whereState(query, search.state, now);
  const rows = await query
    .select(sql<string>`count(*) OVER ()`.as('total'))
    .orderBy('k.created_at', 'desc')
    .orderBy('k.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total = rows[0] ? Number(rows[0].total) : page.offset === 0 ? 0 : await countMatching();
  return { keys: rows.map(toRecord), total };

  // A page past the end returns no row to read the total from.
  async function countMatching(): Promise<number> {
    const all = await query.select(sql<string>`count(*) OVER ()`.as('total')).limit(1).execute();
    return all[0] ? Number(all[0].total) : 0;
  }
}

/** The networks and browser origins a key was seen from in [fromDay, toDay), each with its days. */
export async function keySightings(
  db: Kysely<Database>,
  keyId: string,
  range: { from: string; to: string },
): Promise<{ kind: 'network' | 'origin'; value: string; days: number; lastDay: string }[]> {
  const rows = await db
    .selectFrom('usage_sightings')
    .select(['kind', 'value', sql<string>`count(*)::text`.as('days'), sql<string>`max(day)`.as('last_day')])
    .where('key_id', '=', keyId)
    .where('kind', 'in', ['network', 'origin'])
    .where('day', '>=', range.from)
    .where('day', '<', range.to)
    .groupBy(['kind', 'value'])
    .orderBy('kind')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('value')
    .limit(200)
    .execute();
  return rows.map((row) => ({
    kind: row.kind as 'network' | 'origin',
    value: row.value,
    days: Number(row.days),
    lastDay: row.last_day,
  }));
}

/** One page of the audit, newest first, and how many entries there are in all. */
export async function auditPage(
  db: Kysely<Database>,
  page: { limit: number; offset: number },
): Promise<{ entries: StoredAuditEntry[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('operator_audit')
      .selectAll()
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db.selectFrom('operator_audit').select(sql<string>`count(*)::text`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return {
    entries: rows.map(storedAuditEntry),
    total: Number(count.total),
  };
}

/** Where a page of a key's audit starts: after (older than) or before (newer than) an entry, or at the newest. */
export type AuditCursor = { readonly older: string } | { readonly newer: string } | Record<string, never>;

/**
 * One page of a key's audit, newest first, by keyset on (at, id), the order the console shows
 * everywhere: a page is read from the key's index however deep in its history it lies, and an
 * entry added meanwhile never shifts a page. `hasOlder`/`hasNewer` say whether to link on.
 */
export async function keyAuditPage(
  db: Kysely<Database>,
  keyId: string,
  cursor: AuditCursor,
  limit: number,
): Promise<{ entries: StoredAuditEntry[]; hasOlder: boolean; hasNewer: boolean }> {
  const from = (id: string) => sql`(SELECT at, id FROM operator_audit WHERE id = ${id}::bigint AND key_id = ${keyId})`;
  const query = db.selectFrom('operator_audit').selectAll().where('key_id', '=', keyId);
  if ('newer' in cursor) {
    const rows = await query
      .where(sql<boolean>`(at, id) > ${from(cursor.newer)}`)
      .orderBy('at', 'asc')
      .orderBy('id', 'asc')
      .limit(limit + 1)
      .execute();
    return {
      entries: rows.slice(0, limit).reverse().map(storedAuditEntry),
      hasOlder: true,
      hasNewer: rows.length > limit,
    };
  }
  const older = 'older' in cursor ? query.where(sql<boolean>`(at, id) < ${from(cursor.older)}`) : query;
  const rows = await older
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return {
    entries: rows.slice(0, limit).map(storedAuditEntry),
    hasOlder: rows.length > limit,
    hasNewer: 'older' in cursor,
  };
}

export interface CorpusStats {
  loaded: { version: number; source: string; seed: number | null; size: number; loadedAt: Date } | null;
  quotes: number;
  authors: number;
  categories: { category: string; quotes: number }[];
  eras: { era: string; quotes: number }[];
  lengths: { length: string; quotes: number }[];
  /** The last corpus import or generation in the audit. */
  lastLoad: { at: Date; actor: string; action: string } | null;
}

/** What the loaded corpus holds and when and by whom it was last loaded. */
export async function corpusStats(db: Kysely<Database>): Promise<CorpusStats> {
  const count = (column: 'category' | 'era' | 'length') =>
    db
      .selectFrom('quotes')
      .select([sql<string>`${sql.ref(column)}`.as('value'), sql<string>`count(*)::text`.as('quotes')])
      .groupBy(sql`1`)
      .orderBy(sql`count(*)`, 'desc')
      .orderBy(sql`1`)
      .execute();
  const [state, totals, categories, eras, lengths, lastLoad] = await Promise.all([
    db.selectFrom('corpus_state').select(['version', 'source', 'seed', 'size', 'loaded_at']).executeTakeFirst(),
    db
      .selectFrom('quotes')
      .select([sql<string>`count(*)::text`.as('quotes'), sql<string>`count(DISTINCT author)::text`.as('authors')])
      .executeTakeFirstOrThrow(),
    count('category'),
    count('era'),
    count('length'),
    db
      .selectFrom('operator_audit')
      .select(['at', 'actor', 'action'])
      .where('action', 'like', 'corpus %')
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  const pairs = (rows: { value: string; quotes: string }[]) =>
    rows.map((row) => ({ value: row.value, quotes: Number(row.quotes) }));
  return {
    loaded: state
      ? { version: state.version, source: state.source, seed: state.seed, size: state.size, loadedAt: state.loaded_at }
      : null,
    quotes: Number(totals.quotes),
    authors: Number(totals.authors),
    categories: pairs(categories).map(({ value, quotes }) => ({ category: value, quotes })),
    eras: pairs(eras).map(({ value, quotes }) => ({ era: value, quotes })),
    lengths: pairs(lengths).map(({ value, quotes }) => ({ length: value, quotes })),
    lastLoad: lastLoad ?? null,
  };
}

/** Key requests waiting for the operator, oldest first. */
export async function pendingKeyRequests(
  db: Kysely<Database>,
  limit: number,
): Promise<{ id: string; createdAt: Date; email: string; application: string; plan: string; reasons: string[] }[]> {
  const rows = await db
    .selectFrom('key_requests')
    .select(['id', 'created_at', 'email', 'application', 'plan_id', 'reasons'])
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    email: row.email,
    application: row.application,
    plan: row.plan_id,
    reasons: row.reasons,
  }));
}
