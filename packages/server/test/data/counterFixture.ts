import { createOperatorApi } from '@quotes/accounts';
import { connectDatabase, type DatabaseHandle } from '@quotes/database';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type CounterOptions, MonthlyCounter } from '../../src/data/counting/monthlyCounter.js';

export const month = '2026-11-01';

/**
 * One test file's database for the counter, a second pool on it standing for a second server
 * process, and the counters the file makes (closed after its tests).
 */
export function counterFixture() {
  const held = { counters: [] as MonthlyCounter[] } as {
    database: TestDatabase;
    secondProcess: DatabaseHandle;
    counters: MonthlyCounter[];
  };
  beforeAll(async () => {
    held.database = await createTestDatabase({ poolSize: 10 });
    held.secondProcess = connectDatabase(held.database.url, { poolSize: 10 });
  });
  afterAll(async () => {
    for (const counter of held.counters) await counter.close().catch(() => undefined);
    await held.secondProcess?.close();
    await held.database?.drop();
  });
  return {
    get database(): TestDatabase {
      return held.database;
    },
    get secondProcess(): DatabaseHandle {
      return held.secondProcess;
    },
    /** A counter whose timed flushes stay out of the way unless a test asks for them. */
    counterOn(pool: pg.Pool, options: CounterOptions = {}): MonthlyCounter {
      const counter = new MonthlyCounter(pool, { flushMs: 60_000, ...options });
      held.counters.push(counter);
      return counter;
    },
    async newKey(): Promise<string> {
      return (
        await createOperatorApi(held.database).createKey({
          client: 'Counter test',
          plan: 'enterprise',
          unlimited: true,
        })
      ).id;
    },
    /** The test database's pool, its transactions' connections coming from `connect` (to break them). */
    connectingWith(connect: () => Promise<pg.PoolClient>): pg.Pool {
      const query = (...args: unknown[]) =>
        (held.database.pool.query as (...a: unknown[]) => unknown).apply(held.database.pool, args);
      return { connect, query } as unknown as pg.Pool;
    },
    leasesOf(keyId: string) {
      return held.database.db.selectFrom('allowance_leases').selectAll().where('key_id', '=', keyId).execute();
    },
  };
}

/** The pool, counting the transactions and statements sent through it. */
export function countingPool(pool: pg.Pool): { pool: pg.Pool; statements: () => number } {
  let statements = 0;
  const wrapper = {
    connect: () => {
      statements++;
      return pool.connect();
    },
    query: (...args: Parameters<pg.Pool['query']>) => {
      statements++;
      return (pool.query as (...a: unknown[]) => unknown).apply(pool, args);
    },
  };
  return { pool: wrapper as unknown as pg.Pool, statements: () => statements };
}

/** Admits a call and answers it at a counted status: the month's calls it saw, or 0 when refused. */
export async function servedCall(counter: MonthlyCounter, keyId: string, monthKey: string, limit: number | null) {
  const outcome = await counter.acquire(keyId, monthKey, limit);
  if (!outcome.granted) return 0;
  const used = outcome.slot.served();
  outcome.slot.journal(() => undefined);
  return used;
}
