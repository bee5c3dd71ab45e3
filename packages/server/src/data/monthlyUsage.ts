import { type Kysely, sql } from 'kysely';
import type { Database } from '@quotes/database';

/** Reads and operator writes of the monthly counters; the request path counts through monthlyCounter.ts. */

interface Waiter {
  resolve(calls: number): void;
  reject(error: unknown): void;
}

interface UsageReader {
  running: boolean;
  /** Calls waiting for the next read, by key and month. */
  waiting: Map<string, { keyId: string; monthKey: string; waiters: Waiter[] }>;
}

const readersByDatabase = new WeakMap<Kysely<Database>, UsageReader>();

/** The counts of several keys' months in one statement; a key without a row has made no calls. */
async function readCalls(
  db: Kysely<Database>,
  asked: ReadonlyArray<{ keyId: string; monthKey: string }>,
): Promise<Map<string, number>> {
  const { rows } = await sql<{ key_id: string; month: string; calls: number }>`
    SELECT key_id, month, calls FROM monthly_usage
    WHERE (key_id, month) IN (SELECT * FROM unnest(${asked.map((read) => read.keyId)}::text[], ${asked.map((read) => read.monthKey)}::date[]))`.execute(
    db,
  );
  return new Map(rows.map((row) => [`${row.key_id}|${row.month}`, row.calls]));
}

async function runReads(db: Kysely<Database>, reader: UsageReader): Promise<void> {
  reader.running = true;
  try {
    while (reader.waiting.size > 0) {
      const batch = [...reader.waiting.entries()];
      reader.waiting = new Map();
      try {
        const calls = await readCalls(
          db,
          batch.map(([, read]) => read),
        );
        for (const [laneKey, read] of batch) for (const waiter of read.waiters) waiter.resolve(calls.get(laneKey) ?? 0);
      } catch (error) {
        for (const [, read] of batch) for (const waiter of read.waiters) waiter.reject(error);
      }
    }
  } finally {
    reader.running = false;
  }
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
    reader = { running: false, waiting: new Map() };
    readersByDatabase.set(db, reader);
  }
  const laneKey = `${keyId}|${monthKey}`;
  let read = reader.waiting.get(laneKey);
  if (!read) {
    read = { keyId, monthKey, waiters: [] };
    reader.waiting.set(laneKey, read);
  }
  const { waiters } = read;
  const answer = new Promise<number>((resolve, reject) => waiters.push({ resolve, reject }));
  if (!reader.running) void runReads(db, reader);
  return answer;
}

/** Operator override (e.g. to exhaust a key for a test); not used by the request path. */
export async function setCallsInMonth(
  db: Kysely<Database>,
  keyId: string,
  monthKey: string,
  calls: number,
): Promise<void> {
  await db
    .insertInto('monthly_usage')
    .values({ key_id: keyId, month: monthKey, calls })
    .onConflict((oc) => oc.columns(['key_id', 'month']).doUpdateSet({ calls }))
    .execute();
}

export async function usageInMonth(db: Kysely<Database>, monthKey: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('monthly_usage')
    .select(['key_id', 'calls'])
    .where('month', '=', sql<string>`${monthKey}::date`)
    .execute();
  return new Map(rows.map((row) => [row.key_id, row.calls]));
}
