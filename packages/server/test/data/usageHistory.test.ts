import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { UsageHistory } from '../../src/data/history/usageHistory.js';
import { coverageInMonth, foldAndPruneHistory, historyOf } from '@quotes/accounts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

describe('the usage history in memory and in the table', () => {
  it('writes one statement per flush, adding to the rows already there, hours kept apart', async () => {
    let statements = 0;
    const pool = {
      query: (...args: unknown[]) => {
        statements += 1;
        return (database.pool.query as (...a: unknown[]) => unknown).apply(database.pool, args);
      },
    } as unknown as pg.Pool;
    const history = new UsageHistory(pool, 60_000);
    const at = Date.parse('2026-03-04T10:15:00Z');
    for (let call = 0; call < 1000; call++) history.record('k_flush', 'served', at);
    history.record('k_flush', 'rate-limited', at);
    history.record('k_flush', 'served', at + hourMs);
    expect(history.pendingCalls()).toBe(1002);
    await history.flush();
    for (let call = 0; call < 5; call++) history.record('k_flush', 'served', at);
    await history.close();
    expect(statements).toBe(2);
    expect(history.pendingCalls()).toBe(0);
    const rows = await historyOf(
      database.db,
      'k_flush',
      { from: new Date('2026-03-04T00:00:00Z'), to: new Date('2026-03-05T00:00:00Z') },
      'hour',
    );
    expect(rows).toEqual([
      { start: new Date('2026-03-04T10:00:00Z'), outcome: 'rate-limited', calls: 1 },
      { start: new Date('2026-03-04T10:00:00Z'), outcome: 'served', calls: 1005 },
      { start: new Date('2026-03-04T11:00:00Z'), outcome: 'served', calls: 1 },
    ]);
  });

  it('keeps what a failed flush counted for the next one', async () => {
    let fail = true;
    const errors: unknown[] = [];
    const pool = {
      query: (...args: unknown[]) =>
        fail
          ? Promise.reject(new Error('connection refused'))
          : (database.pool.query as (...a: unknown[]) => unknown).apply(database.pool, args),
    } as unknown as pg.Pool;
    const history = new UsageHistory(pool, 60_000, { onError: (error) => errors.push(error) });
    const at = Date.parse('2026-03-05T08:00:00Z');
    history.record('k_retry', 'served', at);
    history.record('k_retry', 'served', at);
    // Coverage too: a listed key, and a key with a sparse and a dense chunk.
    history.cover('k_retry', [5, 9000], at);
    const dense = Array.from({ length: 300 }, (_, index) => 8192 * 3 + index * 2);
    history.cover('k_retry_chunks', [1, ...dense], at);
    await history.flush();
    expect(errors).toHaveLength(2);
    history.record('k_retry', 'served', at);
    history.cover('k_retry', [5, 77], at);
    fail = false;
    await history.close();
    const rows = await historyOf(database.db, 'k_retry', { from: new Date(at), to: new Date(at + hourMs) }, 'day');
    expect(rows).toEqual([{ start: new Date('2026-03-05T00:00:00Z'), outcome: 'served', calls: 3 }]);
    expect(await coverageInMonth(database.db, '2026-03-01')).toEqual([
      { keyId: 'k_retry', quotes: 3 },
      { keyId: 'k_retry_chunks', quotes: 301 },
    ]);
    expect(history.drops).toEqual({ coverage: 0, sightings: 0 });
  });

  it('folds old hours into their UTC day once, even when two servers fold at once, and drops what is past retention', async () => {
    // A database of its own: the fold's counts are of every row.
    const own = await createTestDatabase();
    onTestFinished(() => own.drop());
    const now = new Date('2026-06-15T12:00:00Z');
    const history = new UsageHistory(own.pool, 60_000);
    const old = Date.parse('2026-04-10T00:00:00Z');
    // 24 hours of an old day (3 calls an hour), one recent hour, and one row past retention.
    for (let hour = 0; hour < 24; hour++)
      for (let call = 0; call < 3; call++) history.record('k_fold', 'served', old + hour * hourMs);
    history.record('k_fold', 'origin-not-allowed', old + 5 * hourMs);
    history.record('k_fold', 'served', now.getTime() - hourMs);
    history.record('k_fold', 'served', now.getTime() - 500 * dayMs);
    await history.close();

    const retention = { keepDays: 400, hourlyDays: 31 };
    const [first, second] = await Promise.all([
      foldAndPruneHistory(own.db, now, retention),
      foldAndPruneHistory(own.db, now, retention),
    ]);
    expect(first.folded + second.folded).toBe(25 + 1);
    expect(first.dropped + second.dropped).toBe(1);
    const all = { from: new Date(now.getTime() - 600 * dayMs), to: now };
    expect(await historyOf(own.db, 'k_fold', all, 'day')).toEqual([
      { start: new Date('2026-04-10T00:00:00Z'), outcome: 'origin-not-allowed', calls: 1 },
      { start: new Date('2026-04-10T00:00:00Z'), outcome: 'served', calls: 72 },
      { start: new Date('2026-06-15T00:00:00Z'), outcome: 'served', calls: 1 },
    ]);
    const { rows } = await own.pool.query<{ span: string; count: number }>(
      "SELECT span, count(*)::int AS count FROM usage_history WHERE key_id = 'k_fold' GROUP BY span ORDER BY span",
    );
    expect(rows).toEqual([
      { span: 'day', count: 2 },
      { span: 'hour', count: 1 },
    ]);
  });

  it('merges the quotes two servers served a key exactly, across flushes and chunks, a month apart', async () => {
    const one = new UsageHistory(database.pool, 60_000);
    const two = new UsageHistory(database.pool, 60_000);
    const at = Date.parse('2026-05-20T12:00:00Z');
    const served = new Set<number>();
    // Random positions over 150,000 (19 chunks), many served by both servers, in two flushes each.
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % 150_000;
    };
    for (let round = 0; round < 2; round++) {
      for (let call = 0; call < 3000; call++) {
        const ranks = call % 10 === 0 ? Array.from({ length: 25 }, next) : [next()];
        for (const rank of ranks) served.add(rank);
        (call % 2 === 0 ? one : two).cover('k_cover', ranks, at);
      }
      // A repeat of what the other server served adds nothing.
      one.cover('k_cover', [...served].slice(0, 500), at);
      await Promise.all([one.flush(), two.flush()]);
    }
    // The next month starts a coverage of its own. A few positions are listed (no chunk), many
    // become chunks; both reach the same bits: chunk boundaries 8191 | 8192 and the last position.
    const june = Date.parse('2026-06-01T00:00:00Z');
    two.cover('k_cover', [0, 8191, 8192, 149_999], june);
    expect(two.coverageBytes()).toBe(0);
    const chunked = [0, 8192, ...Array.from({ length: 198 }, (_, index) => 16_384 + index * 3)];
    one.cover('k_cover', chunked, june);
    expect(one.coverageBytes()).toBe(3 * 1024);
    await Promise.all([one.close(), two.close()]);
    expect(one.coverageBytes()).toBe(0);

    expect(await coverageInMonth(database.db, '2026-05-01')).toEqual([{ keyId: 'k_cover', quotes: served.size }]);
    const juneServed = new Set([0, 8191, 8192, 149_999, ...chunked]);
    expect(await coverageInMonth(database.db, '2026-06-01')).toEqual([{ keyId: 'k_cover', quotes: juneServed.size }]);
    const { rows: bits } = await database.pool.query<{ chunk: number; set: string }>(
      `SELECT chunk, get_bit(bits, 0)::text || get_bit(bits, 8191)::text AS set FROM usage_coverage
       WHERE key_id = 'k_cover' AND month = '2026-06-01' AND chunk IN (0, 18) ORDER BY chunk`,
    );
    expect(bits).toEqual([
      { chunk: 0, set: '11' },
      { chunk: 18, set: '00' },
    ]);
    const { rows } = await database.pool.query<{ chunks: number }>(
      "SELECT count(*)::int AS chunks FROM usage_coverage WHERE key_id = 'k_cover' AND month = '2026-05-01'",
    );
    expect(rows[0]!.chunks).toBe(19);
  });

  it('writes the coverage every coverageFlushMs, the calls every flushMs, keeping the coverage in the budget between', async () => {
    const written: string[] = [];
    const pool = {
      query: (text: string, ...rest: unknown[]) => {
        written.push(text.includes('usage_coverage') ? 'coverage' : 'other');
        return (database.pool.query as (...a: unknown[]) => unknown).call(database.pool, text, ...rest);
      },
    } as unknown as pg.Pool;
    const history = new UsageHistory(pool, 100, { coverageFlushMs: 1500 });
    onTestFinished(() => history.close());
    const at = Date.parse('2026-07-02T09:00:00Z');
    const started = performance.now();
    history.record('k_later', 'served', at);
    const chunked = Array.from({ length: 200 }, (_, index) => index * 40);
    history.cover('k_later', chunked, at);
    const coverageHeld = history.heldBytes();
    await expect.poll(() => history.pendingCalls(), { timeout: 2000 }).toBe(0);
    expect(written).not.toContain('coverage');
    expect(history.coverageBytes()).toBe(1024);
    expect(history.heldBytes()).toBeLessThan(coverageHeld);
    expect(history.heldBytes()).toBeGreaterThan(1024);
    expect(await coverageInMonth(database.db, '2026-07-01')).toEqual([]);

    await expect.poll(() => written.includes('coverage'), { timeout: 3000, interval: 20 }).toBe(true);
    expect(performance.now() - started).toBeGreaterThan(1400);
    expect(history.heldBytes()).toBe(0);
    await expect.poll(() => coverageInMonth(database.db, '2026-07-01')).toEqual([{ keyId: 'k_later', quotes: 200 }]);
  });
});
