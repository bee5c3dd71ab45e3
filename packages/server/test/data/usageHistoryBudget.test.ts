import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { entryBytes, UsageHistory } from '../../src/data/history/usageHistory.js';
import { coverageInMonth, historyOf } from '@quotes/accounts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

/** The real pool, whose statements wait for `open()` while `held` is set: a flush kept in flight. */
function gatedPool() {
  let release: (() => void) | undefined;
  let gate: Promise<void> | undefined;
  let statements = 0;
  const pool = {
    query: async (...args: unknown[]) => {
      statements += 1;
      if (gate !== undefined) await gate;
      return (database.pool.query as (...a: unknown[]) => unknown).apply(database.pool, args);
    },
  } as unknown as pg.Pool;
  return {
    pool,
    statements: () => statements,
    hold() {
      gate = new Promise((resolve) => {
        release = resolve;
      });
    },
    open() {
      gate = undefined;
      release?.();
    },
  };
}

describe('the usage history within its byte budget', () => {
  it('flushes early at the budget; while that flush writes, counts every call and drops (and counts) coverage and sightings past it', async () => {
    const gated = gatedPool();
    gated.hold();
    const history = new UsageHistory(gated.pool, 3_600_000, { maxBytes: 20_000 });
    const at = Date.parse('2026-07-10T09:30:00Z');
    const keys = Array.from({ length: 400 }, (_, key) => `k_budget_${key}`);
    // Each key: 3 calls, each a distinct position of its own (so written + dropped = served), one origin.
    const positionOf = (key: number, call: number) => key * 300 + call * 7;
    for (const [key, id] of keys.entries()) {
      for (let call = 0; call < 3; call++) {
        history.record(id, 'served', at);
        history.cover(id, [positionOf(key, call)], at);
      }
      history.sight(id, 'origin', `https://app-${key}.example`, at);
    }
    // The budget was reached once: that flush took what was held and waits on the database.
    expect(history.earlyFlushes).toBe(1);
    expect(gated.statements()).toBe(1);
    expect(history.drops.coverage).toBeGreaterThan(0);
    expect(history.drops.sightings).toBeGreaterThan(0);
    // Every call is still counted: past the budget only by the count entries themselves.
    const counted = history.pendingCalls();
    expect(counted).toBeGreaterThan(0);
    expect(history.heldBytes()).toBeLessThanOrEqual(20_000 + (counted / 3) * entryBytes.countKey);
    gated.open();
    await history.close();

    const served = await historyOf(
      database.db,
      null,
      { from: new Date(at - 3_600_000), to: new Date(at + 3_600_000) },
      'hour',
    );
    expect(served).toEqual([{ start: new Date('2026-07-10T09:00:00Z'), outcome: 'served', calls: keys.length * 3 }]);
    const covered = (await coverageInMonth(database.db, '2026-07-01')).reduce((sum, row) => sum + row.quotes, 0);
    expect(covered + history.drops.coverage).toBe(keys.length * 3);
    const { rows } = await database.pool.query<{ origins: number }>(
      "SELECT count(*)::int AS origins FROM usage_sightings WHERE kind = 'origin' AND key_id LIKE 'k_budget_%'",
    );
    expect(rows[0]!.origins + history.drops.sightings).toBe(keys.length);
  });

  it('keeps a key that needs chunks as one entry: its positions past the list become 1 KB chunks, counted in the budget', async () => {
    const history = new UsageHistory(database.pool, 3_600_000);
    const at = Date.parse('2026-08-02T00:00:00Z');
    // 128 listed, then the 129th moves them all into chunks 0 and 1.
    history.cover(
      'k_grow',
      Array.from({ length: 128 }, (_, index) => index * 64),
      at,
    );
    expect(history.coverageBytes()).toBe(0);
    const listed = history.heldBytes();
    history.cover('k_grow', [16_383], at);
    expect(history.coverageBytes()).toBe(2 * 1024);
    expect(history.heldBytes()).toBeLessThan(listed + 2 * 1300);
    expect(history.heldBytes()).toBeGreaterThan(2 * 1024);
    await history.close();
    expect(await coverageInMonth(database.db, '2026-08-01')).toEqual([{ keyId: 'k_grow', quotes: 129 }]);
    expect(history.heldBytes()).toBe(0);
  });
});
