import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsInMonth } from '../../src/data/monthlyUsage.js';
import { connectDatabase, type DatabaseHandle } from '@quotes/database';
import { type CounterOutcome, MonthlyCounter } from '../../src/data/monthlyCounter.js';
import { createOperatorApi } from '../../src/operator/operatorApi.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

const month = '2026-11-01';
let database: TestDatabase;
let secondProcess: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase({ poolSize: 10 });
  // A second pool on the same database stands for a second server process.
  secondProcess = connectDatabase(database.url, { poolSize: 10 });
});
afterAll(async () => {
  await secondProcess?.close();
  await database?.drop();
});

async function newKey(): Promise<string> {
  return (await createOperatorApi(database).createKey({ client: 'Counter test', plan: 'enterprise' })).id;
}

/** The pool, counting the statements and the transactions (one per grant) sent through it. */
function countingPool(pool: pg.Pool): { pool: pg.Pool; statements: () => number } {
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

describe('the monthly counter', () => {
  it('grants exactly the remaining calls to 200 concurrent callers, and the row ends at the limit', async () => {
    const keyId = await newKey();
    const { pool, statements } = countingPool(database.pool);
    const counter = new MonthlyCounter(pool);
    const outcomes = await Promise.all(Array.from({ length: 200 }, () => counter.acquire(keyId, month, 150)));
    const granted = outcomes.filter((outcome) => outcome.granted);
    expect(granted).toHaveLength(150);
    // Each granted call saw its own count: 1..150, each once.
    expect(granted.map((outcome) => (outcome.granted ? outcome.used : 0)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 150 }, (_, i) => i + 1),
    );
    expect(await callsInMonth(database.db, keyId, month)).toBe(150);
    // Coalesced: far fewer statements than calls.
    expect(statements()).toBeLessThan(20);
  });

  it('stays exact across two processes sharing one key', async () => {
    const keyId = await newKey();
    const here = new MonthlyCounter(database.pool);
    const there = new MonthlyCounter(secondProcess.pool);
    const calls = Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? here : there).acquire(keyId, month, 250));
    const outcomes = await Promise.all(calls);
    expect(outcomes.filter((outcome) => outcome.granted)).toHaveLength(250);
    expect(await callsInMonth(database.db, keyId, month)).toBe(250);
  });

  it('grants many keys in one round, each exactly, in few transactions', async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, () => newKey()));
    const { pool, statements } = countingPool(database.pool);
    const counter = new MonthlyCounter(pool);
    // Key i may make i + 1 calls; each asks for 10 at once, interleaved across keys.
    const calls = Array.from({ length: 10 }, () =>
      keys.map((keyId, index) => counter.acquire(keyId, month, index + 1)),
    ).flat();
    const outcomes = await Promise.all(calls);
    for (const [index, keyId] of keys.entries()) {
      const granted = outcomes.filter((outcome, call) => call % keys.length === index && outcome.granted);
      expect(granted).toHaveLength(Math.min(index + 1, 10));
      expect(await callsInMonth(database.db, keyId, month)).toBe(Math.min(index + 1, 10));
    }
    // The first call goes alone, the other 199 in the next round: two transactions, not 20 or 200.
    expect(statements()).toBe(2);
  });

  it('never deadlocks two processes granting the same keys in opposite orders', async () => {
    const keys = await Promise.all(Array.from({ length: 30 }, () => newKey()));
    const here = new MonthlyCounter(database.pool);
    const there = new MonthlyCounter(secondProcess.pool);
    // In waves, so the two processes' rounds of all 30 keys overlap again and again.
    const waves = 40;
    for (let wave = 0; wave < waves; wave++) {
      const calls = [
        ...keys.map((keyId) => here.acquire(keyId, month, 1000)),
        ...[...keys].reverse().map((keyId) => there.acquire(keyId, month, 1000)),
      ];
      const outcomes = await Promise.all(calls);
      expect(outcomes.every((outcome) => outcome.granted)).toBe(true);
    }
    for (const keyId of keys) expect(await callsInMonth(database.db, keyId, month)).toBe(2 * waves);
  });

  it('counts on from an existing count and refuses at the limit', async () => {
    const keyId = await newKey();
    const counter = new MonthlyCounter(database.pool);
    await createOperatorApi(database).setUsage(keyId, 8, '2026-11');
    expect(await counter.acquire(keyId, month, 10)).toEqual({ granted: true, used: 9 });
    expect(await counter.acquire(keyId, month, 10)).toEqual({ granted: true, used: 10 });
    expect(await counter.acquire(keyId, month, 10)).toEqual({ granted: false });
    // A limit lowered below the count refuses too, without touching the row.
    expect(await counter.acquire(keyId, month, 5)).toEqual({ granted: false });
    expect(await callsInMonth(database.db, keyId, month)).toBe(10);
  });

  it('never grants a zero allowance, not even the first call of a month', async () => {
    const keyId = await newKey();
    const counter = new MonthlyCounter(database.pool);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => counter.acquire(keyId, month, 0)));
    expect(outcomes.every((outcome) => !outcome.granted)).toBe(true);
    const row = await database.db
      .selectFrom('monthly_usage')
      .selectAll()
      .where('key_id', '=', keyId)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('guesses a key refused under its limit will be refused again, until the limit or the month changes', async () => {
    const keyId = await newKey();
    const counter = new MonthlyCounter(database.pool);
    expect(counter.mayGrant(keyId, month, 2)).toBe(true);
    await Promise.all([1, 2, 3].map(() => counter.acquire(keyId, month, 2)));
    expect(counter.mayGrant(keyId, month, 2)).toBe(false);
    expect(counter.mayGrant(keyId, month, 5)).toBe(true);
    expect(counter.mayGrant(keyId, month, null)).toBe(true);
    expect((await counter.acquire(keyId, month, 5)).granted).toBe(true);
    expect(counter.mayGrant(keyId, '2026-12-01', 2)).toBe(true);
  });

  it('counts unlimited keys too (for usage)', async () => {
    const keyId = await newKey();
    const counter = new MonthlyCounter(database.pool);
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => counter.acquire(keyId, month, null)));
    expect(outcomes.every((outcome) => outcome.granted)).toBe(true);
    expect(await callsInMonth(database.db, keyId, month)).toBe(50);
  });

  it('grants the lanes a round cannot take (another limit of the same key, another month) in the rounds after it', async () => {
    const [first, second] = [await newKey(), await newKey()];
    const counter = new MonthlyCounter(database.pool);
    // The first call goes out at once; the others wait, and a round takes one month and one lane per key.
    const november = [
      counter.acquire(first, '2026-11-01', 5),
      ...Array.from({ length: 3 }, () => counter.acquire(first, '2026-11-01', 5)),
      ...Array.from({ length: 2 }, () => counter.acquire(first, '2026-11-01', 6)),
    ];
    const december = [
      ...Array.from({ length: 3 }, () => counter.acquire(first, '2026-12-01', 5)),
      ...Array.from({ length: 2 }, () => counter.acquire(second, '2026-12-01', null)),
    ];
    const used = (outcomes: CounterOutcome[]) =>
      outcomes.map((outcome) => (outcome.granted ? outcome.used : 0)).sort((a, b) => a - b);
    expect(used(await Promise.all(november))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(used(await Promise.all(december))).toEqual([1, 1, 2, 2, 3]);
    expect(await callsInMonth(database.db, first, '2026-11-01')).toBe(6);
    expect(await callsInMonth(database.db, first, '2026-12-01')).toBe(3);
    expect(await callsInMonth(database.db, second, '2026-12-01')).toBe(2);
  });

  it('keeps months apart', async () => {
    const keyId = await newKey();
    const counter = new MonthlyCounter(database.pool);
    await counter.acquire(keyId, '2026-11-01', 1);
    expect(await counter.acquire(keyId, '2026-11-01', 1)).toEqual({ granted: false });
    expect(await counter.acquire(keyId, '2026-12-01', 1)).toEqual({ granted: true, used: 1 });
  });

  it('gives a call back, and keeps a give-back the database could not take for later', async () => {
    const keyId = await newKey();
    const counter = new MonthlyCounter(database.pool);
    await counter.acquire(keyId, month, 10);
    await counter.acquire(keyId, month, 10);
    await counter.giveBack(keyId, month);
    expect(await callsInMonth(database.db, keyId, month)).toBe(1);

    const unreachable = connectDatabase('postgres://nobody:x@127.0.0.1:9/none', { poolSize: 1 });
    const failing = new MonthlyCounter(unreachable.pool);
    await failing.giveBack(keyId, month);
    expect(failing.pendingGiveBacks).toBe(1);
    failing.close();
    await unreachable.close();
  });
});
