import { setUsage } from '@quotes/accounts/usage-override';
import { describe, expect, it } from 'vitest';
import { callsInMonth } from '@quotes/accounts';
import { type CounterOutcome, MonthlyCounter } from '../../src/data/counting/monthlyCounter.js';

import { counterFixture, countingPool, month, servedCall } from './counterFixture.js';

const fixture = counterFixture();
const { counterOn, newKey, connectingWith, leasesOf } = fixture;

describe('the monthly counter', () => {
  it('admits exactly the remaining calls of 200 concurrent callers, and writes them in few statements', async () => {
    const keyId = await newKey();
    const { pool, statements } = countingPool(fixture.database.pool);
    const counter = counterOn(pool);
    const outcomes = await Promise.all(Array.from({ length: 200 }, () => counter.acquire(keyId, month, 150)));
    const granted = outcomes.filter((outcome) => outcome.granted);
    expect(granted).toHaveLength(150);
    // Each answered call saw its own count: 1..150, each once.
    expect(granted.map((outcome) => outcome.slot.served()).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 150 }, (_, i) => i + 1),
    );
    // Counted in memory until the flush.
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(0);
    await counter.flush();
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(150);
    expect(statements()).toBeLessThan(20);
  });

  it('never admits more than the cap across two processes sharing one key, and uses it all', async () => {
    const keyId = await newKey();
    const here = counterOn(fixture.database.pool, { servers: () => 2 });
    const there = counterOn(fixture.secondProcess.pool, { servers: () => 2 });
    const calls = Array.from({ length: 400 }, (_, i) => servedCall(i % 2 === 0 ? here : there, keyId, month, 250));
    const used = await Promise.all(calls);
    expect(used.filter((calls) => calls > 0)).toHaveLength(250);
    await Promise.all([here.close(), there.close()]);
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(250);
    // Closing gave every lease back.
    expect(await leasesOf(keyId)).toEqual([]);
  });

  it('keeps calls + every lease within the cap while two processes serve a key', async () => {
    const keyId = await newKey();
    const here = counterOn(fixture.database.pool, { servers: () => 2, flushMs: 20 });
    const there = counterOn(fixture.secondProcess.pool, { servers: () => 2, flushMs: 20 });
    const cap = 300;
    let admitted = 0;
    const caller = async (counter: MonthlyCounter) => {
      for (;;) {
        const outcome = await counter.acquire(keyId, month, cap);
        if (!outcome.granted) return;
        admitted++;
        await new Promise((resolve) => setTimeout(resolve, 1));
        outcome.slot.served();
      }
    };
    const watching = (async () => {
      let worst = 0;
      while (admitted < cap) {
        const { rows } = await fixture.database.pool.query<{ total: number }>(
          `SELECT (SELECT coalesce(sum(calls), 0) FROM monthly_usage WHERE key_id = $1)
                + (SELECT coalesce(sum(reserved), 0) FROM allowance_leases WHERE key_id = $1) AS total`,
          [keyId],
        );
        worst = Math.max(worst, Number(rows[0]?.total));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return worst;
    })();
    await Promise.all([
      ...Array.from({ length: 4 }, () => caller(here)),
      ...Array.from({ length: 4 }, () => caller(there)),
    ]);
    expect(admitted).toBe(cap);
    expect(await watching).toBeLessThanOrEqual(cap);
    await Promise.all([here.close(), there.close()]);
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(cap);
  });

  it('writes many keys in one statement per round', async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, () => newKey()));
    const { pool, statements } = countingPool(fixture.database.pool);
    const counter = counterOn(pool);
    // Key i may make i + 1 calls; each asks for 10 at once, interleaved across keys.
    const calls = Array.from({ length: 10 }, () =>
      keys.map((keyId, index) => servedCall(counter, keyId, month, index + 1)),
    ).flat();
    const used = await Promise.all(calls);
    await counter.flush();
    for (const [index, keyId] of keys.entries()) {
      const served = used.filter((calls, call) => call % keys.length === index && calls > 0);
      expect(served).toHaveLength(Math.min(index + 1, 10));
      expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(Math.min(index + 1, 10));
    }
    // The first call's round, the round of the 199 that waited meanwhile, and the flush.
    expect(statements()).toBe(3);
  });

  it('never deadlocks two processes writing the same keys in opposite orders', async () => {
    const keys = await Promise.all(Array.from({ length: 30 }, () => newKey()));
    const here = counterOn(fixture.database.pool);
    const there = counterOn(fixture.secondProcess.pool);
    const waves = 40;
    for (let wave = 0; wave < waves; wave++) {
      const used = await Promise.all([
        ...keys.map((keyId) => servedCall(here, keyId, month, 1000)),
        ...[...keys].reverse().map((keyId) => servedCall(there, keyId, month, 1000)),
      ]);
      expect(used.every((calls) => calls > 0)).toBe(true);
      await Promise.all([here.flush(), there.flush()]);
    }
    for (const keyId of keys) expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(2 * waves);
  });

  it('counts on from an existing count and refuses at the limit', async () => {
    const keyId = await newKey();
    const counter = counterOn(fixture.database.pool);
    await setUsage(fixture.database, keyId, 8, '2026-11');
    expect(await servedCall(counter, keyId, month, 10)).toBe(9);
    expect(await servedCall(counter, keyId, month, 10)).toBe(10);
    expect((await counter.acquire(keyId, month, 10)).granted).toBe(false);
    // A limit lowered below the count refuses too.
    expect((await counter.acquire(keyId, month, 5)).granted).toBe(false);
    await counter.flush();
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(10);
  });

  it('never admits a call under a zero allowance', async () => {
    const keyId = await newKey();
    const counter = counterOn(fixture.database.pool);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => counter.acquire(keyId, month, 0)));
    expect(outcomes.every((outcome) => !outcome.granted)).toBe(true);
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(0);
    expect(await leasesOf(keyId)).toEqual([]);
  });

  it('counts nothing for a call answered at a status that does not count, and gives its place back', async () => {
    const keyId = await newKey();
    const counter = counterOn(fixture.database.pool);
    const first = (await counter.acquire(keyId, month, 1)) as Extract<CounterOutcome, { granted: true }>;
    first.slot.release();
    expect(await servedCall(counter, keyId, month, 1)).toBe(1);
    expect((await counter.acquire(keyId, month, 1)).granted).toBe(false);
    await counter.flush();
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(1);
  });

  it('guesses a key refused under its limit will be refused again, until the limit or the month changes', async () => {
    const keyId = await newKey();
    const counter = counterOn(fixture.database.pool);
    expect(counter.mayGrant(keyId, month, 2)).toBe(true);
    await Promise.all([1, 2, 3].map(() => servedCall(counter, keyId, month, 2)));
    expect(counter.mayGrant(keyId, month, 2)).toBe(false);
    expect(counter.mayGrant(keyId, month, 5)).toBe(true);
    expect(counter.mayGrant(keyId, month, null)).toBe(true);
    expect(await servedCall(counter, keyId, month, 5)).toBe(3);
    expect(counter.mayGrant(keyId, '2026-12-01', 2)).toBe(true);
  });

  it('admits an unlimited key at once, without a statement, and counts it at the flush', async () => {
    const keyId = await newKey();
    const { pool, statements } = countingPool(fixture.database.pool);
    const counter = counterOn(pool);
    for (let call = 0; call < 50; call++) {
      const outcome = counter.acquire(keyId, month, null);
      expect(outcome).not.toBeInstanceOf(Promise);
      (outcome as Extract<CounterOutcome, { granted: true }>).slot.served();
    }
    expect(statements()).toBe(0);
    expect(counter.unflushedCalls).toBe(50);
    await counter.flush();
    expect(statements()).toBe(1);
    expect(counter.unflushedCalls).toBe(0);
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(50);
    expect(await leasesOf(keyId)).toEqual([]);
  });

  it("reads a key's month as every server flushed it plus this server's calls since", async () => {
    const keyId = await newKey();
    const here = counterOn(fixture.database.pool);
    const there = counterOn(fixture.secondProcess.pool);
    for (let call = 0; call < 3; call++) await servedCall(there, keyId, month, null);
    await there.flush();
    for (let call = 0; call < 2; call++) await servedCall(here, keyId, month, null);
    await servedCall(there, keyId, month, null);
    expect(await here.callsInMonth(keyId, month)).toBe(5);
  });

  it('keeps months apart', async () => {
    const keyId = await newKey();
    const counter = counterOn(fixture.database.pool);
    await servedCall(counter, keyId, '2026-11-01', 1);
    expect((await counter.acquire(keyId, '2026-11-01', 1)).granted).toBe(false);
    expect(await servedCall(counter, keyId, '2026-12-01', 1)).toBe(1);
  });

  it('keeps the counts of a flush that failed for the next one', async () => {
    const keyId = await newKey();
    let failing = true;
    const pool = connectingWith(() =>
      failing ? Promise.reject(new Error('connect ECONNREFUSED')) : fixture.database.pool.connect(),
    );
    const counter = counterOn(pool);
    for (let call = 0; call < 4; call++) await servedCall(counter, keyId, month, null);
    await expect(counter.flush()).rejects.toThrow('ECONNREFUSED');
    expect(counter.unflushedCalls).toBe(4);
    failing = false;
    await counter.flush();
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(4);
  });

  it('settles a flush whose COMMIT went unanswered by its transaction id: written once, never twice', async () => {
    for (const committed of [true, false]) {
      const keyId = await newKey();
      let breakCommit = true;
      // The COMMIT is lost on the way: sent and taken (committed), or never sent (the connection
      // is closed, so PostgreSQL rolls the transaction back).
      const pool = connectingWith(async () => {
        const client = await fixture.database.pool.connect();
        const query = client.query.bind(client) as (...a: unknown[]) => Promise<unknown>;
        (client as unknown as { query: unknown }).query = async (...args: unknown[]) => {
          if (args[0] === 'COMMIT' && breakCommit) {
            breakCommit = false;
            if (committed) await query(...args);
            throw new Error('Connection terminated unexpectedly');
          }
          return query(...args);
        };
        return client;
      });
      const counter = counterOn(pool);
      for (let call = 0; call < 3; call++) await servedCall(counter, keyId, month, null);
      await expect(counter.flush()).rejects.toThrow('Connection terminated');
      expect(counter.roundsInDoubt).toBe(1);
      // Time for PostgreSQL to end the closed connection's transaction.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await servedCall(counter, keyId, month, null);
      await counter.flush();
      expect(counter.roundsInDoubt).toBe(0);
      await counter.flush();
      expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(4);
    }
  });

  it("loses only a killed process's calls since its last flush, and its lease expires for the others", async () => {
    const keyId = await newKey();
    const leaseExpiryMs = 600;
    const killed = new MonthlyCounter(fixture.secondProcess.pool, { flushMs: 60_000, leaseExpiryMs });
    const survivor = counterOn(fixture.database.pool, { leaseExpiryMs });
    for (let call = 0; call < 5; call++) await servedCall(killed, keyId, month, 20);
    await killed.flush();
    for (let call = 0; call < 3; call++) await servedCall(killed, keyId, month, 20);
    // Killed: never flushes or gives its lease back again (its timer is stopped without a round).
    (killed as unknown as { flushTimer: NodeJS.Timeout }).flushTimer.close();
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(5);
    expect((await leasesOf(keyId)).length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, leaseExpiryMs + 50));
    // The survivor gets all the rest: 15 of the 20 (the killed process's 3 were answered uncounted).
    const used = [];
    for (let call = 0; call < 20; call++) used.push(await servedCall(survivor, keyId, month, 20));
    expect(used.filter((calls) => calls > 0)).toHaveLength(15);
    await survivor.close();
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(20);
    expect(await leasesOf(keyId)).toEqual([]);
  });
});
