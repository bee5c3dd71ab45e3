import { type Kysely, sql } from 'kysely';
import type { Database } from '@quotes/database';
import { type AllowancePeriod, earlierMonthsOf } from '../domain/allowancePeriod.js';
import { calendarMonthOf } from '../domain/calendarMonth.js';
import { type Lane, StatementRounds } from '@quotes/database';
import { inTransaction } from './transaction.js';

/** Reads and operator writes of the monthly counters; the request path counts through monthlyCounter.ts. */

const readersByDatabase = new WeakMap<Kysely<Database>, StatementRounds<MonthOfKey, number>>();

interface MonthOfKey {
  readonly keyId: string;
  readonly monthKey: string;
}

/** The counts of several keys' months in one statement; a key without a row has made no calls. */
async function readCalls(
  db: Kysely<Database>,
  round: ReadonlyArray<Lane<MonthOfKey>>,
): Promise<(lane: Lane<MonthOfKey>) => number> {
  const { rows } = await sql<{ key_id: string; month: string; calls: number }>`
    SELECT key_id, month, calls FROM monthly_usage
    WHERE (key_id, month) IN (SELECT * FROM unnest(${round.map(({ item }) => item.keyId)}::text[], ${round.map(({ item }) => item.monthKey)}::date[]))`.execute(
    db,
  );
  const calls = new Map(rows.map((row) => [`${row.key_id}|${row.month}`, row.calls]));
  return ({ item }) => calls.get(`${item.keyId}|${item.monthKey}`) ?? 0;
}

/**
 * The calls counted for a key in a month, exactly as PostgreSQL holds them when the read
 * starts. Concurrent reads share statements, every key in one: a call joins the next read to
 * start (never one already under way, which might predate a grant the caller has seen), so every
 * answer still comes from a read begun after the call arrived, whichever server counted the
 * calls; busy keys cost one statement per round trip instead of one per call or per key.
 */
export function callsInMonth(db: Kysely<Database>, keyId: string, monthKey: string): Promise<number> {
  let reader = readersByDatabase.get(db);
  if (!reader) {
    reader = new StatementRounds({ run: (round) => readCalls(db, round) });
    readersByDatabase.set(db, reader);
  }
  return reader.ask(`${keyId}|${monthKey}`, { keyId, monthKey });
}

/**
 * The calls counted for a key in its allowance period up to `now` (allowancePeriod.ts): this
 * month's, plus the period's earlier months' for a trial whose 30 days crossed the 1st. What the
 * holder's page and the allowance mails measure a key's allowance against.
 */
export async function callsInPeriod(
  db: Kysely<Database>,
  keyId: string,
  period: AllowancePeriod,
  now: Date,
): Promise<number> {
  const months = [...earlierMonthsOf(period, now), calendarMonthOf(now).key];
  const counts = await Promise.all(months.map((monthKey) => callsInMonth(db, keyId, monthKey)));
  return counts.reduce((total, calls) => total + calls, 0);
}

/**
 * Operator override (e.g. to exhaust a key for a test); not used by the request path. Returns the
 * count it replaced, read under the row's lock in the same transaction. The key's leases of that
 * month go too, so servers answer from the new figure once their next flush renews their lease
 * (within COUNT_FLUSH_MS).
 */
export function setCallsInMonth(db: Kysely<Database>, keyId: string, monthKey: string, calls: number): Promise<number> {
  return inTransaction(db, async (trx) => {
    const before = await trx
      .selectFrom('monthly_usage')
      .select('calls')
      .where('key_id', '=', keyId)
      .where('month', '=', monthKey)
      .forUpdate()
      .executeTakeFirst();
    await trx
      .insertInto('monthly_usage')
      .values({ key_id: keyId, month: monthKey, calls })
      .onConflict((oc) => oc.columns(['key_id', 'month']).doUpdateSet({ calls }))
      .execute();
    await trx.deleteFrom('allowance_leases').where('key_id', '=', keyId).where('month', '=', monthKey).execute();
    return Number(before?.calls ?? 0);
  });
}

export async function usageInMonth(db: Kysely<Database>, monthKey: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('monthly_usage')
    .select(['key_id', 'calls'])
    .where('month', '=', sql<string>`${monthKey}::date`)
    .execute();
  return new Map(rows.map((row) => [row.key_id, row.calls]));
}
