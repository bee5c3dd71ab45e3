import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callsInMonth } from '@quotes/accounts';
import { CountJournal, deadJournals } from '../../src/data/counting/countJournal.js';
import { MonthlyCounter } from '../../src/data/counting/monthlyCounter.js';

import { counterFixture, month, servedCall } from './counterFixture.js';

const fixture = counterFixture();
const { counterOn, newKey, connectingWith } = fixture;

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
    const killed = new MonthlyCounter(fixture.database.pool, {
      flushMs: 60_000,
      serverId: 'killed',
      journal: killedJournal,
    });
    for (let call = 0; call < 5; call++) await servedCall(killed, keyId, month, null);
    await killed.flush();
    for (let call = 0; call < 3; call++) await servedCall(killed, keyId, month, null);
    // Killed: it never flushes again, and its journal is left as the page cache keeps it.
    (killed as unknown as { flushTimer: NodeJS.Timeout }).flushTimer.close();
    killedJournal.close();
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(5);

    // Two servers sweep at once, each having listed the dead journal: it is added once.
    const sweepers = [counterOn(fixture.database.pool), counterOn(fixture.secondProcess.pool)];
    const found = deadJournals(root, 'db', join(root, 'db', 'own'));
    expect(found.map((journal) => journal.serverId)).toEqual(['killed']);
    const recovered = await Promise.all(sweepers.map((sweeper) => sweeper.recoverJournals(found)));
    expect(recovered.sort()).toEqual([0, 3]);
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(8);
    expect(existsSync(deadDir)).toBe(false);
    expect(await sweepers[0]!.recoverJournals(deadJournals(root, 'db', ''))).toBe(0);
  });

  /** A journal, and answers that note what the journal held as each left: its own line among the turn's. */
  const journalWithAnswers = (maxHoldMs?: number) => {
    const journal = new CountJournal(join(root, 'db', 'here'), undefined, maxHoldMs);
    const sent: string[] = [];
    const answer = (name: string) => () => sent.push(`${name}: ${readFileSync(join(journal.dir, '1'), 'utf8')}`);
    return { journal, sent, answer };
  };

  it("sends a turn's answers only once the turn's lines are written, in the order they came", async () => {
    // A hold of a second, not the 1 ms one: a stall of the machine between two records must not end it.
    const { journal, sent, answer } = journalWithAnswers(1000);
    journal.record('k1', '2026-11-01', answer('first'));
    journal.record('k2', '2026-11-01', answer('second'));
    expect(sent).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    const lines = 'k1 2026-11-01\nk2 2026-11-01\n';
    expect(sent).toEqual([`first: ${lines}`, `second: ${lines}`]);
    journal.close();
  });

  it('in a turn longer than its hold, sends what it answered so far once a later line is written, before the turn ends', async () => {
    // A hold of 50 ms, not the 1 ms one, so a stall of the machine between the first two records
    // cannot end it; the turn's work below outlasts it.
    const { journal, sent, answer } = journalWithAnswers(50);
    journal.record('k1', '2026-11-01', answer('first'));
    journal.record('k2', '2026-11-01', answer('second'));
    // One turn's work of more than the hold: the next call's line is written with the ones
    // waiting, and their answers go at once.
    const busyUntil = performance.now() + 60;
    while (performance.now() < busyUntil);
    journal.record('k3', '2026-11-01', answer('third'));
    const lines = 'k1 2026-11-01\nk2 2026-11-01\nk3 2026-11-01\n';
    expect(sent).toEqual([`first: ${lines}`, `second: ${lines}`, `third: ${lines}`]);
    // A new hold begins with the next call: within it, the answer waits for the turn's end.
    journal.record('k4', '2026-11-01', answer('fourth'));
    expect(sent).toHaveLength(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent[3]).toBe(`fourth: ${lines}k4 2026-11-01\n`);
    journal.close();
  });

  it('sends an answer at once when its journal cannot be written', async () => {
    const journal = new CountJournal(join(root, 'db', 'here'));
    rmSync(root, { recursive: true, force: true });
    journal.record('k1', '2026-11-01', () => undefined);
    journal.rotate();
    const sent: string[] = [];
    journal.record('k2', '2026-11-01', () => sent.push('k2'));
    expect(sent).toEqual(['k2']);
    journal.close();
  });

  it('leaves no journal behind once its calls are written and it is closed', async () => {
    const keyId = await newKey();
    const journal = new CountJournal(join(root, 'db', 'here'));
    const counter = counterOn(fixture.database.pool, { journal });
    for (let call = 0; call < 4; call++) await servedCall(counter, keyId, month, null);
    await counter.close();
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(4);
    expect(existsSync(journal.dir)).toBe(false);
  });

  it('keeps its journal when the last flush at its stop fails, and the next sweep adds those calls', async () => {
    const keyId = await newKey();
    let databaseGone = false;
    const pool = connectingWith(() =>
      databaseGone ? Promise.reject(new Error('the fixture.database stopped first')) : fixture.database.pool.connect(),
    );
    // A pid no process has here: once closed, its server is gone.
    const journal = new CountJournal(join(root, 'db', `${hostname()}-4194303-stopped`));
    const stopped = new MonthlyCounter(pool, { flushMs: 60_000, serverId: 'stopped', journal });
    for (let call = 0; call < 4; call++) await servedCall(stopped, keyId, month, null);
    await stopped.flush();
    for (let call = 0; call < 3; call++) await servedCall(stopped, keyId, month, null);
    databaseGone = true;
    await stopped.close();
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(4);
    expect(existsSync(journal.dir)).toBe(true);
    expect(await counterOn(fixture.database.pool).recoverJournals(deadJournals(root, 'db', ''))).toBe(3);
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(7);
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
    const counter = counterOn(fixture.database.pool, { journal });
    await servedCall(counter, keyId, month, null);
    rmSync(root, { recursive: true, force: true });
    for (let call = 0; call < 3; call++) await servedCall(counter, keyId, month, null);
    await counter.flush();
    await servedCall(counter, keyId, month, null);
    await counter.flush();
    expect(await callsInMonth(fixture.database.db, keyId, month)).toBe(5);
    expect(errors).toHaveLength(1);
  });
});
