import { setUsage } from '../../src/usageOverride.js';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@quotes/database';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { callsInMonth, callsInPeriod } from '../../src/data/monthlyUsage.js';
import { allowancePeriod } from '../../src/domain/allowancePeriod.js';
import { rules } from '@quotes/contract';
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
        const { id } = await operator.createKey({ client: `Usage ${index}`, plan: 'enterprise', unlimited: true });
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
    const { id } = await createOperatorApi(database).createKey({
      client: 'Usage order',
      plan: 'enterprise',
      unlimited: true,
    });
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

describe("a key's calls in its allowance period", () => {
  it("adds a trial's earlier month across the 1st; a monthly plan's month alone", async () => {
    const operator = createOperatorApi(database, { clock: () => new Date('2026-11-29T12:00:00Z') });
    const trial = await operator.createKey({ client: 'Period test', plan: 'trial' });
    await setUsage(database, trial.id, 600, '2026-11');
    await setUsage(database, trial.id, 150, '2026-12');
    const now = new Date('2026-12-05T00:00:00Z');
    const key = { createdAt: new Date('2026-11-29T12:00:00Z'), expiresAt: new Date('2026-12-29T12:00:00Z') };
    const trialPeriod = allowancePeriod(rules.planById.get('trial')!, key, now);
    expect(await callsInPeriod(database.db, trial.id, trialPeriod, now)).toBe(750);
    const monthPeriod = allowancePeriod(rules.planById.get('starter')!, key, now);
    expect(await callsInPeriod(database.db, trial.id, monthPeriod, now)).toBe(150);
  });
});
