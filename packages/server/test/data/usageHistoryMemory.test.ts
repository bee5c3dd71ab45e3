import { setImmediate as nextTurn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { defaultHistoryBytes, UsageHistory } from '../../src/data/history/usageHistory.js';
import { coverageInMonth, historyOf } from '@quotes/accounts';

// 10,000 distinct keys, each a few random calls, within one flush interval: what the recorder
// holds (heap and the ArrayBuffers outside it), without a budget and within the default one.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const keys = 10_000;
const callsPerKey = 5;
const corpus = 150_000;
const at = Date.parse('2026-09-15T14:20:00Z');

function heldBytes(): number {
  collect();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** Each key's random quotes, drawn before anything is measured. */
const positions = (() => {
  let seed = 20261126;
  return Uint32Array.from({ length: keys * callsPerKey }, () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return Math.floor((seed / 2 ** 31) * corpus);
  });
})();

/** Each key's calls: served, a random quote, its network and origin; `onKey` between keys lets flushes run. */
async function traffic(history: UsageHistory, onKey: (key: number) => Promise<void> | void): Promise<void> {
  for (let key = 0; key < keys; key++) {
    const id = `k_${key.toString(36).padStart(12, '0')}`;
    for (let call = 0; call < callsPerKey; call++) {
      history.record(id, 'served', at + call);
      history.cover(id, [positions[key * callsPerKey + call]!], at + call);
      history.sight(id, 'network', `10.${key % 250}.${(key >> 8) % 250}.0/24`, at);
    }
    history.sight(id, 'origin', `https://app-${key}.example`, at);
    await onKey(key);
  }
}

describe('the usage history with 10,000 active keys in one interval', () => {
  it('holds about what its estimate says, under the default budget; a smaller one flushes early, holds it plus one flush, and loses no call', async () => {
    // Without a budget, never written: what each key costs, measured and estimated.
    const idle = { query: () => new Promise(() => undefined) } as unknown as pg.Pool;
    const before = heldBytes();
    const unbounded = new UsageHistory(idle, 3_600_000, { maxBytes: Number.POSITIVE_INFINITY });
    await traffic(unbounded, () => undefined);
    const measured = heldBytes() - before;
    const estimated = unbounded.heldBytes();
    console.log(
      `no budget: ${Math.round(measured / keys)} bytes a key measured, ${Math.round(estimated / keys)} estimated; ${(measured / 2 ** 20).toFixed(1)} MB for ${keys} keys`,
    );
    // The estimate the budget is kept on is no smaller than what is held (within 10%).
    expect(estimated).toBeGreaterThan(measured * 0.9);
    void unbounded.close();

    // Under the default budget without a flush; a quarter of it, on a real database, flushes early:
    // the peak held, sampled every 500 keys.
    expect(estimated).toBeLessThan(defaultHistoryBytes);
    const budget = defaultHistoryBytes / 4;
    const base = heldBytes();
    const history = new UsageHistory(database.pool, 3_600_000, { maxBytes: budget });
    let peak = 0;
    await traffic(history, async (key) => {
      if (key % 50 === 0) await nextTurn();
      if (key % 500 === 0) peak = Math.max(peak, heldBytes() - base);
    });
    peak = Math.max(peak, heldBytes() - base);
    console.log(
      `budget ${budget / 2 ** 20} MB: peak ${(peak / 2 ** 20).toFixed(1)} MB held, ${history.earlyFlushes} early flushes, dropped ${history.drops.coverage} positions and ${history.drops.sightings} sightings`,
    );
    expect(history.earlyFlushes).toBeGreaterThan(0);
    // The budget, plus one flush in flight (what it took, as much again), plus what the flush's
    // statements and the pool hold besides: 0.5 to 1.6 MiB over eleven runs, at budgets of 2 and 4 MiB.
    // Without a budget the same traffic holds 11.5 MiB.
    expect(peak).toBeLessThan(2 * budget + 2 * 2 ** 20);
    await history.close();

    const rows = await historyOf(
      database.db,
      null,
      { from: new Date(at - 3_600_000), to: new Date(at + 3_600_000) },
      'hour',
    );
    expect(rows).toEqual([{ start: new Date('2026-09-15T14:00:00Z'), outcome: 'served', calls: keys * callsPerKey }]);
    let distinct = 0;
    for (let key = 0; key < keys; key++)
      distinct += new Set(positions.subarray(key * callsPerKey, (key + 1) * callsPerKey)).size;
    const covered = (await coverageInMonth(database.db, '2026-09-01')).reduce((sum, row) => sum + row.quotes, 0);
    expect(covered + history.drops.coverage).toBeGreaterThanOrEqual(distinct);
    expect(covered).toBeLessThanOrEqual(distinct);
  }, 120_000);
});
