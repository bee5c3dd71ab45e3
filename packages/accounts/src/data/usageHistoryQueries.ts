import { type Kysely, sql } from 'kysely';
import type { Database } from '@quotes/database';

/** The history's bucket for calls whose key was missing or unknown. */
export const unknownKeyBucket = 'unknown';

/** How long history is kept and how long it stays hourly (the config's USAGE_HISTORY_*). */
export interface HistoryRetention {
  keepDays: number;
  hourlyDays: number;
}

export interface HistoryRow {
  /** Start of the hour or UTC day. */
  start: Date;
  outcome: string;
  calls: number;
}

const dayMs = 86_400_000;

/**
 * Folds hourly rows older than `hourlyDays` into their UTC day and deletes rows older than
 * `keepDays`. One statement moves the rows (DELETE ... RETURNING into the upsert), so two
 * servers folding at once cannot count a row twice: the second one's DELETE skips what the
 * first removed. Returns how many hourly rows were folded and how many rows were dropped.
 */
export async function foldAndPruneHistory(
  db: Kysely<Database>,
  now: Date,
  retention: HistoryRetention,
): Promise<{ folded: number; dropped: number }> {
  const foldBefore = new Date(now.getTime() - retention.hourlyDays * dayMs);
  const dropBefore = new Date(now.getTime() - retention.keepDays * dayMs);
  const folded = await sql<{ folded: string }>`
    WITH moved AS (
      DELETE FROM usage_history WHERE span = 'hour' AND period_start < ${foldBefore}
      RETURNING key_id, period_start, outcome, calls
    ), days AS (
      INSERT INTO usage_history AS h (key_id, span, period_start, outcome, calls)
      SELECT key_id, 'day', date_trunc('day', period_start, 'UTC'), outcome, sum(calls) FROM moved
      GROUP BY 1, 3, 4 ORDER BY 1, 3, 4
      ON CONFLICT (key_id, span, period_start, outcome) DO UPDATE SET calls = h.calls + excluded.calls
    )
    SELECT count(*)::text AS folded FROM moved`.execute(db);
  const dropped = await db.deleteFrom('usage_history').where('period_start', '<', dropBefore).executeTakeFirst();
  await db.deleteFrom('usage_sightings').where('day', '<', dropBefore.toISOString().slice(0, 10)).execute();
  // Months wholly before the kept days: a month's coverage is kept while any of its days is.
  const keptMonth = `${dropBefore.toISOString().slice(0, 8)}01`;
  await db.deleteFrom('usage_coverage').where('month', '<', keptMonth).execute();
  await db.deleteFrom('usage_signal_alerts').where('month', '<', keptMonth).execute();
  return { folded: Number(folded.rows[0]?.folded ?? 0), dropped: Number(dropped.numDeletedRows) };
}

/**
 * One key's (or the unknown bucket's) calls per hour or UTC day and outcome in [from, to); with
 * `keyId` null, every key's together (the unknown bucket included). By hour, periods already
 * folded into days come as their day's row (starting 00:00 UTC).
 */
export async function historyOf(
  db: Kysely<Database>,
  keyId: string | null,
  range: { from: Date; to: Date },
  by: 'hour' | 'day',
): Promise<HistoryRow[]> {
  const start = by === 'day' ? sql<Date>`date_trunc('day', period_start, 'UTC')` : sql<Date>`period_start`;
  const rows = await db
    .selectFrom('usage_history')
    .select([start.as('start'), 'outcome', sql<string>`sum(calls)::text`.as('calls')])
    .$if(keyId !== null, (query) => query.where('key_id', '=', keyId!))
    .where('period_start', '>=', range.from)
    .where('period_start', '<', range.to)
    .groupBy([sql`1`, 'outcome'])
    .orderBy(sql`1`)
    .orderBy('outcome')
    .execute();
  return rows.map((row) => ({ start: new Date(row.start), outcome: row.outcome, calls: Number(row.calls) }));
}

/** The sightings of every key in [from, to) (days), and the trial keys created in the window before `to`. */
export async function sightingsBetween(
  db: Kysely<Database>,
  range: { from: string; to: string },
): Promise<{ keyId: string; day: string; kind: 'network' | 'origin' | 'page'; value: string }[]> {
  const rows = await db
    .selectFrom('usage_sightings')
    .select(['key_id', 'day', 'kind', 'value'])
    .where('day', '>=', range.from)
    .where('day', '<', range.to)
    .orderBy('key_id')
    .orderBy('day')
    .execute();
  return rows.map((row) => ({ keyId: row.key_id, day: row.day, kind: row.kind, value: row.value }));
}

/** Distinct corpus positions served to each key in a month (first day, YYYY-MM-01): the bits of its bitset. */
export async function coverageInMonth(
  db: Kysely<Database>,
  monthKey: string,
): Promise<{ keyId: string; quotes: number }[]> {
  const rows = await db
    .selectFrom('usage_coverage')
    .select(['key_id', sql<string>`sum(bit_count(bits))::text`.as('quotes')])
    .where('month', '=', monthKey)
    .groupBy('key_id')
    .orderBy('key_id')
    .execute();
  return rows.map((row) => ({ keyId: row.key_id, quotes: Number(row.quotes) }));
}

/** Quotes in the corpus now (0 before the first load). */
export async function corpusSize(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('corpus_state').select('size').executeTakeFirst();
  return row?.size ?? 0;
}

/** Keys on plans with a validity (trials) created in [from, to). */
export async function trialKeysCreated(
  db: Kysely<Database>,
  range: { from: Date; to: Date },
): Promise<{ id: string; createdAt: Date }[]> {
  const rows = await db
    .selectFrom('api_keys')
    .innerJoin('plans', 'plans.id', 'api_keys.plan_id')
    .select(['api_keys.id', 'api_keys.created_at'])
    .where('plans.validity_days', 'is not', null)
    .where('api_keys.created_at', '>=', range.from)
    .where('api_keys.created_at', '<', range.to)
    .execute();
  return rows.map((row) => ({ id: row.id, createdAt: row.created_at }));
}

/**
 * Trials asked for through the key-request form in [from, to) whose address was confirmed, with
 * the network they were asked from: each as its key once granted, else as the request itself
 * (`r_...`). A request never confirmed is anyone's typing, not a trial.
 */
export async function trialRequestsFrom(
  db: Kysely<Database>,
  range: { from: Date; to: Date },
): Promise<{ id: string; kind: 'key' | 'request'; createdAt: Date; network: string }[]> {
  const rows = await db
    .selectFrom('key_requests')
    .innerJoin('plans', 'plans.id', 'key_requests.plan_id')
    .select(['key_requests.id', 'key_requests.key_id', 'key_requests.created_at', 'key_requests.client_network'])
    .where('plans.validity_days', 'is not', null)
    // A holder's plan change or renewal of a trial key is no request for a trial.
    .where('key_requests.kind', '=', 'key')
    .where('key_requests.confirmed_at', 'is not', null)
    .where('key_requests.created_at', '>=', range.from)
    .where('key_requests.created_at', '<', range.to)
    .execute();
  return rows.map((row) => ({
    id: row.key_id ?? row.id,
    kind: row.key_id === null ? ('request' as const) : ('key' as const),
    createdAt: row.created_at,
    network: row.client_network,
  }));
}
