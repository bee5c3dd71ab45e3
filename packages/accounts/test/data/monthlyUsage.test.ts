import { setUsage } from '../../src/testing.js';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@quotes/database';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { callsInMonth } from '../../src/data/monthlyUsage.js';
import { createOperatorApi } from '../../src/operator/operatorApi.js';

const month = '2026-11-01';
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ poolSize: 10 });
});
afterAll(() => database?.drop());

/** A Kysely on the real pool, counting the connections it takes (one per statement). */
function countingDb(pool: pg.Pool): { db: Kysely<Database>; statements: () => number } {
  let statements = 0;
  const counted = {
    connect: () => {
      statements++;
      return pool.connect();
    },
    end: () => Promise.resolve(),
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: counted as unknown as pg.Pool }) });
  return { db, statements: () => statements };
}

describe('quotes-usage reads', () => {
  it('answer many keys at once from two statements, each key exactly', async () => {
    const operator = createOperatorApi(database);
    const keys = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const { id } = await operator.createKey({ client: `Usage ${index}`, plan: 'enterprise' });
        if (index > 0) await setUsage(database, id, index * 3, '2026-11');
        return id;
      }),
    );
    const { db, statements } = countingDb(database.pool);
    const reads = await Promise.all(
      Array.from({ length: 4 }, () => keys.map((keyId) => callsInMonth(db, keyId, month))).flat(),
    );
    expect(reads).toEqual(Array.from({ length: 4 }, () => keys.map((_, index) => index * 3)).flat());
    // The first read goes alone; the 79 arriving while it runs share the next.
    expect(statements()).toBe(2);
  });

  it('keeps nothing: a read asked for after a count sees it', async () => {
    const { id } = await createOperatorApi(database).createKey({ client: 'Usage order', plan: 'enterprise' });
    const { db } = countingDb(database.pool);
    const before = callsInMonth(db, id, month);
    // Counted after the first read was sent: a read asked for now must see it.
    await database.pool.query(
      `INSERT INTO monthly_usage (key_id, month, calls) VALUES ($1, $2, 7)
       ON CONFLICT (key_id, month) DO UPDATE SET calls = 7`,
      [id, month],
    );
    const after = callsInMonth(db, id, month);
    expect(await after).toBe(7);
    expect([0, 7]).toContain(await before);
  });
});
