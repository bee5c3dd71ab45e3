import { Kysely, PostgresDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsInMonth, setCallsInMonth } from '../../src/data/monthlyUsage.js';
import type { Database } from '@quotes/database';
import { createOperatorApi } from '../../src/operator/operatorApi.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

let database: TestDatabase;
let keyId: string;
const month = '2026-11-01';

beforeAll(async () => {
  database = await createTestDatabase();
  keyId = (await createOperatorApi(database).createKey({ plan: 'starter', client: 'Usage reads' })).id;
});
afterAll(() => database?.drop());

/** A second Kysely on the same pool that writes down every statement it runs. */
function countingDatabase(): { db: Kysely<Database>; statements: () => number } {
  let statements = 0;
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: database.pool }),
    log: (event) => {
      if (event.level === 'query') statements++;
    },
  });
  return { db, statements: () => statements };
}

describe("reading a key's calls this month", () => {
  it('shares one statement among concurrent reads of one key', async () => {
    await setCallsInMonth(database.db, keyId, month, 41);
    const { db, statements } = countingDatabase();
    const reads = await Promise.all(Array.from({ length: 64 }, () => callsInMonth(db, keyId, month)));
    expect(reads).toEqual(Array(64).fill(41));
    // The first read starts at once, the other 63 share the next one.
    expect(statements()).toBe(2);
  });

  it('never answers from a read that started before the call: a change made meanwhile is seen', async () => {
    await setCallsInMonth(database.db, keyId, month, 1);
    const { db } = countingDatabase();
    const early = callsInMonth(db, keyId, month);
    await setCallsInMonth(database.db, keyId, month, 2);
    // Arrives while `early` may still be under way, after the change committed: must see 2.
    const late = callsInMonth(db, keyId, month);
    expect(await late).toBe(2);
    expect([1, 2]).toContain(await early);
  });

  it('answers 0 for a key without calls, and recovers after a failed read', async () => {
    const { db } = countingDatabase();
    expect(await callsInMonth(db, 'k_nobodyhere1', month)).toBe(0);
    await expect(callsInMonth(db, keyId, 'not a month')).rejects.toThrow();
    await setCallsInMonth(database.db, keyId, month, 5);
    expect(await callsInMonth(db, keyId, month)).toBe(5);
  });
});
