import { type Kysely, sql } from 'kysely';
import type { Database } from '@quotes/database';

/** Reads and operator writes of the monthly counters; the request path counts through monthlyCounter.ts. */

interface ReadLane {
  /** The read under way, if any. */
  running: Promise<number> | undefined;
  /** The read that starts when the running one ends, shared by every call that arrived meanwhile. */
  next: Promise<number> | undefined;
}

const lanesByDatabase = new WeakMap<Kysely<Database>, Map<string, ReadLane>>();

async function readCalls(db: Kysely<Database>, keyId: string, monthKey: string): Promise<number> {
  const row = await db
    .selectFrom('monthly_usage')
    .select('calls')
    .where('key_id', '=', keyId)
    .where('month', '=', monthKey)
    .executeTakeFirst();
  return row?.calls ?? 0;
}

/**
 * The calls counted for a key in a month, exactly as PostgreSQL holds them when the read
 * starts. Concurrent reads of one key share statements: a call joins the next read to start
 * (never one already under way, which might predate a grant the caller has seen), so every
 * answer still comes from a read begun after the call arrived, whichever server counted the
 * calls; a hot key costs one statement per round trip instead of one per call.
 */
export function callsInMonth(db: Kysely<Database>, keyId: string, monthKey: string): Promise<number> {
  let lanes = lanesByDatabase.get(db);
  if (!lanes) {
    lanes = new Map();
    lanesByDatabase.set(db, lanes);
  }
  const laneKey = `${keyId}|${monthKey}`;
  let lane = lanes.get(laneKey);
  if (!lane) {
    lane = { running: undefined, next: undefined };
    lanes.set(laneKey, lane);
  }
  const current = lane;
  const start = (): Promise<number> => {
    const read = readCalls(db, keyId, monthKey);
    current.running = read;
    const settle = () => {
      if (current.running !== read) return;
      current.running = undefined;
      if (!current.next && lanes.get(laneKey) === current) lanes.delete(laneKey);
    };
    read.then(settle, settle);
    return read;
  };
  if (!current.running) return start();
  if (!current.next) {
    const running = current.running;
    const next = running.then(start, start);
    current.next = next;
    // Once it starts, it is the running read; later calls queue behind it.
    running.then(
      () => {
        if (current.next === next) current.next = undefined;
      },
      () => {
        if (current.next === next) current.next = undefined;
      },
    );
  }
  return current.next as Promise<number>;
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
