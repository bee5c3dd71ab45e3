import { setUsage } from '@quotes/accounts/testing';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callsInMonth } from '@quotes/accounts';
import { connectDatabase, type DatabaseHandle } from '@quotes/database';
import { CountJournal, deadJournals } from '../../src/data/countJournal.js';
import { type CounterOptions, type CounterOutcome, MonthlyCounter } from '../../src/data/monthlyCounter.js';
import { createOperatorApi } from '@quotes/accounts';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

const month = '2026-11-01';
let database: TestDatabase;
let secondProcess: DatabaseHandle;
const counters: MonthlyCounter[] = [];

beforeAll(async () => {
  database = await createTestDatabase({ poolSize: 10 });
  // A second pool on the same database stands for a second server process.
  secondProcess = connectDatabase(database.url, { poolSize: 10 });
});
afterAll(async () => {
  for (const counter of counters) await counter.close().catch(() => undefined);
  await secondProcess?.close();
  await database?.drop();
});

/** A counter whose timed flushes stay out of the way unless a test asks for them. */
function counterOn(pool: pg.Pool, options: CounterOptions = {}): MonthlyCounter {
  const counter = new MonthlyCounter(pool, { flushMs: 60_000, ...options });
  counters.push(counter);
  return counter;
}

async function newKey(): Promise<string> {
  return (await createOperatorApi(database).createKey({ client: 'Counter test', plan: 'enterprise' })).id;
}

/** The pool, counting the transactions and statements sent through it. */
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

/** The test database's pool, its transactions' connections coming from `connect` (to break them). */
function connectingWith(connect: () => Promise<pg.PoolClient>): pg.Pool {
  const query = (...args: unknown[]) =>
    (database.pool.query as (...a: unknown[]) => unknown).apply(database.pool, args);
  return { connect, query } as unknown as pg.Pool;
}

/** Admits a call and answers it at a counted status: the month's calls it saw, or 0 when refused. */
async function servedCall(counter: MonthlyCounter, keyId: string, monthKey: string, limit: number | null) {
  const outcome = await counter.acquire(keyId, monthKey, limit);
  if (!outcome.granted) return 0;
  const used = outcome.slot.served();
  outcome.slot.journal();
  return used;
}

async function leasesOf(keyId: string) {
  return database.db.selectFrom('allowance_leases').selectAll().where('key_id', '=', keyId).execute();
}

describe('the monthly counter', () => {
  it('admits exactly the remaining calls of 200 concurrent callers, and writes them in few statements', async () => {
    const keyId = await newKey();
    const { pool, statements } = countingPool(database.pool);
    const counter = counterOn(pool);
    const outcomes = await Promise.all(Array.from({ length: 200 }, () => counter.acquire(keyId, month, 150)));
    const granted = outcomes.filter((outcome) => outcome.granted);
    expect(granted).toHaveLength(150);
    // Each answered call saw its own count: 1..150, each once.
    expect(granted.map((outcome) => outcome.slot.served()).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 150 }, (_, i) => i + 1),
    );
    // Counted in memory until the flush.
    expect(await callsInMonth(database.db, keyId, month)).toBe(0);
    await counter.flush();
    expect(await callsInMonth(database.db, keyId, month)).toBe(150);
    expect(statements()).toBeLessThan(20);
  });

  it('never admits more than the cap across two processes sharing one key, and uses it all', async () => {
    const keyId = await newKey();
    const here = counterOn(database.pool, { servers: () => 2 });
    const there = counterOn(secondProcess.pool, { servers: () => 2 });
    const calls = Array.from({ length: 400 }, (_, i) => servedCall(i % 2 === 0 ? here : there, keyId, month, 250));
    const used = await Promise.all(calls);
    expect(used.filter((calls) => calls > 0)).toHaveLength(250);
    await Promise.all([here.close(), there.close()]);
    expect(await callsInMonth(database.db, keyId, month)).toBe(250);
    // Closing gave every lease back.
    expect(await leasesOf(keyId)).toEqual([]);
  });

  it('keeps calls + every lease within the cap while two processes serve a key', async () => {
    const keyId = await newKey();
    const here = counterOn(database.pool, { servers: () => 2, flushMs: 20 });
    const there = counterOn(secondProcess.pool, { servers: () => 2, flushMs: 20 });
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
        const { rows } = await database.pool.query<{ total: number }>(
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
    expect(await callsInMonth(database.db, keyId, month)).toBe(cap);
  });

  it('writes many keys in one statement per round', async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, () => newKey()));
    const { pool, statements } = countingPool(database.pool);
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
      expect(await callsInMonth(database.db, keyId, month)).toBe(Math.min(index + 1, 10));
    }
    // The first call's round, the round of the 199 that waited meanwhile, and the flush.
    expect(statements()).toBe(3);
  });

  it('never deadlocks two processes writing the same keys in opposite orders', async () => {
    const keys = await Promise.all(Array.from({ length: 30 }, () => newKey()));
    const here = counterOn(database.pool);
    const there = counterOn(secondProcess.pool);
    const waves = 40;
    for (let wave = 0; wave < waves; wave++) {
      const used = await Promise.all([
        ...keys.map((keyId) => servedCall(here, keyId, month, 1000)),
        ...[...keys].reverse().map((keyId) => servedCall(there, keyId, month, 1000)),
      ]);
      expect(used.every((calls) => calls > 0)).toBe(true);
      await Promise.all([here.flush(), there.flush()]);
    }
    for (const keyId of keys) expect(await callsInMonth(database.db, keyId, month)).toBe(2 * waves);
  });

  it('counts on from an existing count and refuses at the limit', async () => {
    const keyId = await newKey();
    const counter = counterOn(database.pool);
    await setUsage(database, keyId, 8, '2026-11');
    expect(await servedCall(counter, keyId, month, 10)).toBe(9);
    expect(await servedCall(counter, keyId, month, 10)).toBe(10);
    expect((await counter.acquire(keyId, month, 10)).granted).toBe(false);
    // A limit lowered below the count refuses too.
    expect((await counter.acquire(keyId, month, 5)).granted).toBe(false);
    await counter.flush();
    expect(await callsInMonth(database.db, keyId, month)).toBe(10);
  });

  it('never admits a call under a zero allowance', async () => {
    const keyId = await newKey();
    const counter = counterOn(database.pool);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => counter.acquire(keyId, month, 0)));
    expect(outcomes.every((outcome) => !outcome.granted)).toBe(true);
    expect(await callsInMonth(database.db, keyId, month)).toBe(0);
    expect(await leasesOf(keyId)).toEqual([]);
  });

  it('counts nothing for a call answered at a status that does not count, and gives its place back', async () => {
    const keyId = await newKey();
    const counter = counterOn(database.pool);
    const first = (await counter.acquire(keyId, month, 1)) as Extract<CounterOutcome, { granted: true }>;
    first.slot.release();
    expect(await servedCall(counter, keyId, month, 1)).toBe(1);
    expect((await counter.acquire(keyId, month, 1)).granted).toBe(false);
    await counter.flush();
    expect(await callsInMonth(database.db, keyId, month)).toBe(1);
  });

  it('guesses a key refused under its limit will be refused again, until the limit or the month changes', async () => {
    const keyId = await newKey();
    const counter = counterOn(database.pool);
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
    const { pool, statements } = countingPool(database.pool);
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
    expect(await callsInMonth(database.db, keyId, month)).toBe(50);
    expect(await leasesOf(keyId)).toEqual([]);
  });

  it("reads a key's month as every server flushed it plus this server's calls since", async () => {
    const keyId = await newKey();
    const here = counterOn(database.pool);
    const there = counterOn(secondProcess.pool);
    for (let call = 0; call < 3; call++) await servedCall(there, keyId, month, null);
    await there.flush();
    for (let call = 0; call < 2; call++) await servedCall(here, keyId, month, null);
    await servedCall(there, keyId, month, null);
    expect(await here.callsInMonth(keyId, month)).toBe(5);
  });

  it('keeps months apart', async () => {
    const keyId = await newKey();
    const counter = counterOn(database.pool);
    await servedCall(counter, keyId, '2026-11-01', 1);
    expect((await counter.acquire(keyId, '2026-11-01', 1)).granted).toBe(false);
    expect(await servedCall(counter, keyId, '2026-12-01', 1)).toBe(1);
  });

  it('keeps the counts of a flush that failed for the next one', async () => {
    const keyId = await newKey();
    let failing = true;
    const pool = connectingWith(() =>
      failing ? Promise.reject(new Error('connect ECONNREFUSED')) : database.pool.connect(),
    );
    const counter = counterOn(pool);
    for (let call = 0; call < 4; call++) await servedCall(counter, keyId, month, null);
    await expect(counter.flush()).rejects.toThrow('ECONNREFUSED');
    expect(counter.unflushedCalls).toBe(4);
    failing = false;
    await counter.flush();
    expect(await callsInMonth(database.db, keyId, month)).toBe(4);
  });

  it('settles a flush whose COMMIT went unanswered by its transaction id: written once, never twice', async () => {
    for (const committed of [true, false]) {
      const keyId = await newKey();
      let breakCommit = true;
      // The COMMIT is lost on the way: sent and taken (committed), or never sent (the connection
      // is closed, so PostgreSQL rolls the transaction back).
      const pool = connectingWith(async () => {
        const client = await database.pool.connect();
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
      expect(await callsInMonth(database.db, keyId, month)).toBe(4);
    }
  });

  it("loses only a killed process's calls since its last flush, and its lease expires for the others", async () => {
    const keyId = await newKey();
    const leaseExpiryMs = 600;
    const killed = new MonthlyCounter(secondProcess.pool, { flushMs: 60_000, leaseExpiryMs });
    const survivor = counterOn(database.pool, { leaseExpiryMs });
    for (let call = 0; call < 5; call++) await servedCall(killed, keyId, month, 20);
    await killed.flush();
    for (let call = 0; call < 3; call++) await servedCall(killed, keyId, month, 20);
    // Killed: never flushes or gives its lease back again (its timer is stopped without a round).
    (killed as unknown as { flushTimer: NodeJS.Timeout }).flushTimer.close();
    expect(await callsInMonth(database.db, keyId, month)).toBe(5);
    expect((await leasesOf(keyId)).length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, leaseExpiryMs + 50));
    // The survivor gets all the rest: 15 of the 20 (the killed process's 3 were answered uncounted).
    const used = [];
    for (let call = 0; call < 20; call++) used.push(await servedCall(survivor, keyId, month, 20));
    expect(used.filter((calls) => calls > 0)).toHaveLength(15);
    await survivor.close();
    expect(await callsInMonth(database.db, keyId, month)).toBe(20);
    expect(await leasesOf(keyId)).toEqual([]);
  });
});

describe('the journal of counted calls', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'quotes-journal-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("adds a killed process's journaled calls once, however many servers sweep it", async () => {
    const keyId = await newKey();
    // A pid no process has here: the journal's server is gone.
    const deadDir = join(root, 'db', `${hostname()}-4194303-killed`);
    const killedJournal = new CountJournal(deadDir);
    const killed = new MonthlyCounter(database.pool, { flushMs: 60_000, serverId: 'killed', journal: killedJournal });
    for (let call = 0; call < 5; call++) await servedCall(killed, keyId, month, null);
    await killed.flush();
    for (let call = 0; call < 3; call++) await servedCall(killed, keyId, month, null);
    // Killed: it never flushes again, and its journal is left as the page cache keeps it.
    (killed as unknown as { flushTimer: NodeJS.Timeout }).flushTimer.close();
    killedJournal.close();
    expect(await callsInMonth(database.db, keyId, month)).toBe(5);

    // Two servers sweep at once, each having listed the dead journal: it is added once.
    const sweepers = [counterOn(database.pool), counterOn(secondProcess.pool)];
    const found = deadJournals(root, 'db', join(root, 'db', 'own'));
    expect(found.map((journal) => journal.serverId)).toEqual(['killed']);
    const recovered = await Promise.all(sweepers.map((sweeper) => sweeper.recoverJournals(found)));
    expect(recovered.sort()).toEqual([0, 3]);
    expect(await callsInMonth(database.db, keyId, month)).toBe(8);
    expect(existsSync(deadDir)).toBe(false);
    expect(await sweepers[0]!.recoverJournals(deadJournals(root, 'db', ''))).toBe(0);
  });

  it('leaves no journal behind once its calls are written and it is closed', async () => {
    const keyId = await newKey();
    const journal = new CountJournal(join(root, 'db', 'here'));
    const counter = counterOn(database.pool, { journal });
    for (let call = 0; call < 4; call++) await servedCall(counter, keyId, month, null);
    await counter.close();
    expect(await callsInMonth(database.db, keyId, month)).toBe(4);
    expect(existsSync(journal.dir)).toBe(false);
  });

  it('keeps its journal when the last flush at its stop fails, and the next sweep adds those calls', async () => {
    const keyId = await newKey();
    let databaseGone = false;
    const pool = connectingWith(() =>
      databaseGone ? Promise.reject(new Error('the database stopped first')) : database.pool.connect(),
    );
    // A pid no process has here: once closed, its server is gone.
    const journal = new CountJournal(join(root, 'db', `${hostname()}-4194303-stopped`));
    const stopped = new MonthlyCounter(pool, { flushMs: 60_000, serverId: 'stopped', journal });
    for (let call = 0; call < 4; call++) await servedCall(stopped, keyId, month, null);
    await stopped.flush();
    for (let call = 0; call < 3; call++) await servedCall(stopped, keyId, month, null);
    databaseGone = true;
    await stopped.close();
    expect(await callsInMonth(database.db, keyId, month)).toBe(4);
    expect(existsSync(journal.dir)).toBe(true);
    expect(await counterOn(database.pool).recoverJournals(deadJournals(root, 'db', ''))).toBe(3);
    expect(await callsInMonth(database.db, keyId, month)).toBe(7);
  });

  it("sweeps only this host's journals of ended processes: this pid on another journal is one, a running pid is not", () => {
    const own = join(root, 'db', `${hostname()}-${process.pid}-own`);
    const others = [
      `${hostname()}-${process.pid}-before`,
      `${hostname()}-${process.ppid}-parent`,
      'elsewhere-4194303-remote',
    ];
    for (const dir of [...others.map((name) => join(root, 'db', name)), own]) mkdirSync(dir, { recursive: true });
    expect(deadJournals(root, 'db', own).map((journal) => journal.serverId)).toEqual(['before']);
  });

  it('goes on counting when its journal cannot be written, and says so once', async () => {
    const keyId = await newKey();
    const errors: unknown[] = [];
    const journal = new CountJournal(join(root, 'db', 'here'), (error) => errors.push(error));
    const counter = counterOn(database.pool, { journal });
    await servedCall(counter, keyId, month, null);
    rmSync(root, { recursive: true, force: true });
    for (let call = 0; call < 3; call++) await servedCall(counter, keyId, month, null);
    await counter.flush();
    await servedCall(counter, keyId, month, null);
    await counter.flush();
    expect(await callsInMonth(database.db, keyId, month)).toBe(5);
    expect(errors).toHaveLength(1);
  });
});
