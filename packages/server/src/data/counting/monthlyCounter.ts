import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { leaseChange } from '../../domain/leaseSizing.js';
import type { CountJournal, DeadJournal } from './countJournal.js';
import { flushStatement, journalStatement, leaseStatement, readStatement } from './counterStatements.js';
import {
  type CounterOutcome,
  type DoubtfulRound,
  type FlushRow,
  flushItem,
  KeyMonth,
  type LeaseRow,
  type RoundAnswer,
  type RoundItem,
  type Sent,
  UnansweredCommit,
  undoRound,
} from './keyMonth.js';
import { inOwnTransaction } from './counterTransaction.js';
import { recoverJournals } from './journalRecovery.js';

export type { CallSlot, CounterOutcome } from './keyMonth.js';
import { type Lane, type RoundAnswers, StatementRounds } from '@quotes/database';

export interface CounterOptions {
  /** How often counts are written and leases renewed (COUNT_FLUSH_MS, default 200). */
  flushMs?: number;
  /** Servers sharing the database now, this one included (ServerPresence); default 1. */
  servers?: () => number;
  /** This server's name on its leases (default a random UUID). */
  serverId?: string;
  /** Another server's lease not renewed for this long is deleted (default leaseExpiryMs); this server trusts its own a third of it. */
  leaseExpiryMs?: number;
  /** Where each answered call is appended as well, for recovery after a SIGKILL; none by default. */
  journal?: CountJournal;
  /** Called with each failed round (the outage's signal). */
  onFailure?: (error: unknown) => void;
  /** Called when a round's statements committed: the database answers (the outage's end). */
  onSuccess?: () => void;
}

/** The cap an unlimited key's lease is given back under (it holds none unless its plan just changed). */
const unlimited = 2_147_483_647;
/**
 * Any server deletes another's lease not renewed for this long: its server stopped (killed). A
 * server uses its own lease at most a third of it after sending the round that renewed it, so a
 * live server's lease is never deleted under it while a round of it can still be in flight (the
 * statement deadline is 2 s by default).
 */
export const leaseExpiryMs = 15_000;
/** How long a lease is used after the round renewing it was sent, and calls are answered from memory once rounds fail. */
export const leaseTrustMs = leaseExpiryMs / 3;
/**
 * A call finding what is left of its allowance only in other servers' leases waits this many flush
 * intervals (and a lease's trust) at most for them to be given back or spent and written (an idle
 * lease goes back within two), then is refused.
 */
export const elsewhereWaitFlushes = 5;
/** How often such a call asks again, at most. */
const elsewherePollMs = 100;
/** A key's month idle this long, with nothing to write or hold, is forgotten. */
const forgetAfterMs = 60_000;

/**
 * The monthly counter. A call is counted when it is answered, in this process's memory, and the
 * counts are added to `monthly_usage` by one statement per round: every COUNT_FLUSH_MS, and at
 * shutdown. A capped key's calls are admitted only within a lease, a part of its allowance this
 * server reserved in `allowance_leases`, sized to its demand here and renewed by each flush, so
 * calls + every server's lease never exceed the cap. A call finding no free place waits for the
 * next round (one in flight per process), which also flushes; unlimited keys need no lease. No
 * database round trip is on a call's path while its key's lease has room.
 */
export class MonthlyCounter {
  private readonly rounds = new StatementRounds<RoundItem, RoundAnswer>({
    run: (round) => this.runRound(round),
  });
  private readonly entries = new Map<string, KeyMonth>();
  private doubtful: DoubtfulRound[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly flushTimer: NodeJS.Timeout;
  private closing = false;
  private readonly flushMs: number;
  private readonly servers: () => number;
  private readonly serverId: string;
  private readonly onFailure: (error: unknown) => void;
  private readonly onSuccess: () => void;
  private readonly leaseExpiryMs: number;
  private readonly journal: CountJournal | undefined;
  /** How long a lease is used after the round that renewed it was sent, and calls are answered from memory once rounds fail. */
  private readonly trustMs: number;
  /** When the rounds began failing (performance.now ms); undefined while they succeed. */
  private failingSince: number | undefined;
  /** Rounds that reached the database (failed ones too) and the time rounds took, calls written, lease places granted, calls that waited for a round: read by the metrics. */
  readonly roundStats = { rounds: 0, failed: 0, seconds: 0, flushedCalls: 0, leasedCalls: 0, waitedCalls: 0 };

  constructor(
    private readonly pool: pg.Pool,
    options: CounterOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 200;
    this.servers = options.servers ?? (() => 1);
    this.serverId = options.serverId ?? randomUUID();
    this.onFailure = options.onFailure ?? (() => undefined);
    this.onSuccess = options.onSuccess ?? (() => undefined);
    this.leaseExpiryMs = options.leaseExpiryMs ?? leaseExpiryMs;
    this.journal = options.journal;
    this.trustMs = this.leaseExpiryMs / 3;
    // A slow database makes flushes wait for the round in flight, never pile up: they share a lane.
    this.flushTimer = setInterval(() => void this.flush().catch(() => undefined), this.flushMs);
    this.flushTimer.unref();
  }

  /**
   * False when this key's last round found nothing left of its allowance under this limit and its
   * lease is used up: its next call will most likely be refused. A guess for scheduling, never a
   * decision.
   */
  mayGrant(keyId: string, monthKey: string, limit: number | null): boolean {
    if (limit === null) return true;
    const entry = this.entries.get(`${keyId}|${monthKey}`);
    return entry === undefined || entry.exhaustedUnder !== limit || entry.free(performance.now()) > 0;
  }

  /**
   * Admits one call of `keyId` in the month `monthKey` ('YYYY-MM-01'); `limit` null is unlimited.
   * Synchronous while the key needs no lease or its lease has room; else after the next round.
   */
  acquire(keyId: string, monthKey: string, limit: number | null): CounterOutcome | Promise<CounterOutcome> {
    const entry = this.entryOf(keyId, monthKey, limit);
    entry.askedSinceFlush++;
    const now = performance.now();
    // While rounds fail, calls are answered from memory for a lease's trust at most, then each
    // waits for a round (and meets its failure, a 503): what a kill can lose stays bounded.
    if (
      (limit === null || entry.free(now) > 0) &&
      (this.failingSince === undefined || now - this.failingSince < this.trustMs)
    ) {
      entry.running++;
      return entry.granted;
    }
    return this.waitForLease(entry);
  }

  /** The month's calls of the key: every server's as flushed, with this server's calls since, read in a round of its own. */
  async callsInMonth(keyId: string, monthKey: string): Promise<number> {
    const entry = this.entryOf(keyId, monthKey, this.entries.get(`${keyId}|${monthKey}`)?.limit ?? null);
    return (await this.rounds.ask(`read|${keyId}|${monthKey}`, { kind: 'read', entry })) as number;
  }

  /** Writes what was counted so far now, and renews or gives back leases, rather than at the next interval. */
  async flush(): Promise<void> {
    await this.rounds.ask('flush', flushItem);
  }

  /** Calls answered here and not yet known to be written (what a kill now would lose). */
  get unflushedCalls(): number {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.unflushed + entry.sending;
    return total;
  }

  /** Stops the timer, writes what is left and gives every lease back (after the calls in flight are answered). */
  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    this.closing = true;
    try {
      await this.flush();
    } catch (error) {
      this.onFailure(error);
    }
    if (this.doubtful.length > 0) await this.reconcileDoubtful().catch(() => undefined);
    this.journal?.close();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  /**
   * Stops the timer and forgets every count without writing one: for a counter whose calls are
   * never billed (the start's warm-up calls, warmUpCalls.ts), which holds no lease and ran no round.
   */
  discard(): void {
    clearInterval(this.flushTimer);
    this.closing = true;
    this.entries.clear();
    this.journal?.close();
  }

  private entryOf(keyId: string, monthKey: string, limit: number | null): KeyMonth {
    const id = `${keyId}|${monthKey}`;
    let entry = this.entries.get(id);
    if (entry === undefined) {
      entry = new KeyMonth(keyId, monthKey, limit, this.journal);
      this.entries.set(id, entry);
    } else entry.limit = limit;
    return entry;
  }

  private async waitForLease(entry: KeyMonth): Promise<CounterOutcome> {
    this.roundStats.waitedCalls++;
    // Never longer than a lease is trusted: a server silent for longer may be dead, its lease not yet expired.
    const deadline = performance.now() + Math.min(elsewhereWaitFlushes * this.flushMs, this.trustMs);
    for (;;) {
      const answer = await this.rounds.ask(`lease|${entry.keyId}|${entry.monthKey}`, { kind: 'lease', entry });
      if (answer === 'granted') return entry.granted;
      if (answer === 'refused') return { granted: false };
      if (answer === 'elsewhere') {
        if (performance.now() >= deadline) return { granted: false };
        await sleep(Math.min(this.flushMs, elsewherePollMs));
      }
    }
  }

  private async runRound(round: readonly Lane<RoundItem>[]): Promise<RoundAnswers<RoundItem, RoundAnswer>> {
    const started = performance.now();
    try {
      // A lease in doubt is frozen: settle it first, so the waiting calls see where it stands.
      if (this.doubtful.length > 0) await this.reconcileDoubtful();
      const answers = await this.countRound(round, started);
      this.failingSince = undefined;
      return answers;
    } catch (error) {
      this.failingSince ??= started;
      this.roundStats.failed++;
      this.onFailure(error);
      throw error;
    } finally {
      this.roundStats.seconds += (performance.now() - started) / 1000;
    }
  }

  private async countRound(
    round: readonly Lane<RoundItem>[],
    started: number,
  ): Promise<RoundAnswers<RoundItem, RoundAnswer>> {
    const timed = round.some((lane) => lane.item.kind === 'flush');
    const waiting = new Map<KeyMonth, number>();
    const reads = new Set<KeyMonth>();
    for (const { item, callers } of round) {
      if (item.kind === 'lease') waiting.set(item.entry, callers);
      else if (item.kind === 'read') reads.add(item.entry);
    }
    const doubtfulEntries = new Set(this.doubtful.flatMap((doubt) => doubt.sent.map((sent) => sent.entry)));
    const sent: Sent[] = [];
    const flushRows: [string[], string[], number[]] = [[], [], []];
    const leaseRows: [string[], string[], number[], number[], number[], number[]] = [[], [], [], [], [], []];
    const readRows: [string[], string[]] = [[], []];
    // In the same synchronous step as the counts are taken: the journal's files up to this
    // generation hold exactly the calls counted so far.
    const generation = this.journal?.rotate() ?? 0;
    for (const [id, entry] of this.entries) {
      const callers = waiting.get(entry) ?? 0;
      const leased = (entry.limit !== null || entry.reserved > 0) && !doubtfulEntries.has(entry);
      const needsLease = leased && (entry.reserved > 0 || callers > 0 || entry.unflushed > 0);
      if (entry.unflushed === 0 && !needsLease) {
        if (reads.has(entry)) {
          readRows[0].push(entry.keyId);
          readRows[1].push(entry.monthKey);
        } else if (timed && entry.idle && started - entry.lastUsedAt > forgetAfterMs && !doubtfulEntries.has(entry)) {
          this.entries.delete(id);
        }
        if (timed) this.rollDemand(entry);
        continue;
      }
      const served = entry.unflushed;
      entry.unflushed = 0;
      entry.sending += served;
      entry.lastUsedAt = started;
      flushRows[0].push(entry.keyId);
      flushRows[1].push(entry.monthKey);
      flushRows[2].push(served);
      let giveBack = 0;
      if (needsLease) {
        const free = Math.max(0, entry.reserved - entry.sending - entry.running);
        const change = leaseChange({
          free,
          askedSinceFlush: entry.askedSinceFlush,
          waiting: callers,
          demand: entry.demand,
          timed,
          closing: this.closing,
        });
        giveBack = change.giveBack;
        entry.reserved -= giveBack;
        leaseRows[0].push(entry.keyId);
        leaseRows[1].push(entry.monthKey);
        leaseRows[2].push(served);
        leaseRows[3].push(giveBack);
        leaseRows[4].push(change.ask);
        leaseRows[5].push(entry.limit ?? unlimited);
      }
      if (timed) this.rollDemand(entry);
      sent.push({ entry, served, giveBack });
    }
    if (sent.length === 0 && readRows[0].length === 0) {
      // Failing rounds keep asking while there is nothing to write, so their end is seen at once.
      if (this.failingSince !== undefined) {
        this.roundStats.rounds++;
        await this.pool.query('SELECT 1');
        this.onSuccess();
      }
      return this.answers(new Map(), waiting);
    }

    const queries: pg.QueryConfig[] = [];
    if (sent.length > 0) queries.push({ name: 'monthly-usage-flush', text: flushStatement, values: flushRows });
    if (leaseRows[0].length > 0)
      queries.push({
        name: 'allowance-lease-round',
        text: leaseStatement,
        values: [...leaseRows, this.serverId, Math.max(1, this.servers()), this.leaseExpiryMs],
      });
    if (readRows[0].length > 0) queries.push({ name: 'monthly-usage-read', text: readStatement, values: readRows });
    if (sent.length > 0 && generation > 0)
      queries.push({ name: 'count-journal-written', text: journalStatement, values: [this.serverId, generation] });

    let results: unknown[][];
    this.roundStats.rounds++;
    try {
      results = await inOwnTransaction(this.pool, queries);
    } catch (error) {
      if (error instanceof UnansweredCommit) {
        // Frozen until settled: the lease may or may not have changed.
        for (const { entry } of sent) entry.trustedUntil = 0;
        this.doubtful.push({ xid: error.xid, sent, failure: error.failure });
        this.scheduleRetry();
        throw error.failure;
      }
      undoRound(sent);
      throw error;
    }
    const [flushed, leases, read] = [
      sent.length > 0 ? (results.shift() as FlushRow[]) : [],
      leaseRows[0].length > 0 ? (results.shift() as LeaseRow[]) : [],
      readRows[0].length > 0 ? (results.shift() as FlushRow[]) : [],
    ];
    this.onSuccess();
    if (generation > 0) this.journal?.written(generation);
    for (const { entry, served } of sent) entry.sending -= served;
    this.roundStats.flushedCalls += sent.reduce((total, { served }) => total + served, 0);
    const remaining = new Map<KeyMonth, { left: number; others: number }>();
    for (const row of [...flushed, ...read]) {
      const entry = this.entries.get(`${row.key_id}|${row.month}`);
      if (entry) entry.flushedCalls = row.calls;
    }
    for (const row of leases) {
      const entry = this.entries.get(`${row.key_id}|${row.month}`);
      if (!entry) continue;
      entry.reserved = row.reserved;
      entry.trustedUntil = started + this.trustMs;
      this.roundStats.leasedCalls += row.granted;
      remaining.set(entry, { left: row.remaining, others: row.others });
    }
    return this.answers(remaining, waiting);
  }

  /**
   * Each waiting call takes a free place in arrival order; without one it waits again: for the
   * next round while places remain, for other servers' leases while only they hold places, and
   * not at all once nothing remains.
   */
  private answers(
    remaining: Map<KeyMonth, { left: number; others: number }>,
    waiting: Map<KeyMonth, number>,
  ): RoundAnswers<RoundItem, RoundAnswer> {
    const now = performance.now();
    const heldElsewhere = new Set<KeyMonth>();
    for (const entry of waiting.keys()) {
      const lease = remaining.get(entry);
      const gone = lease !== undefined && lease.left <= 0;
      entry.exhaustedUnder = gone && lease.others <= 0 ? entry.limit : null;
      if (gone && lease.others > 0) heldElsewhere.add(entry);
    }
    return ({ item }) => {
      if (item.kind === 'flush') return 'granted';
      const { entry } = item;
      if (item.kind === 'read') return entry.flushedCalls + entry.unflushed + entry.sending;
      if (entry.limit === null || entry.free(now) > 0) {
        entry.running++;
        return 'granted';
      }
      const doubt = this.doubtful.find(({ sent }) => sent.some((one) => one.entry === entry));
      if (doubt) throw doubt.failure;
      if (heldElsewhere.has(entry)) return 'elsewhere';
      return entry.exhaustedUnder === entry.limit ? 'refused' : 'again';
    };
  }

  private rollDemand(entry: KeyMonth): void {
    entry.demand = entry.askedSinceFlush;
    entry.askedSinceFlush = 0;
  }

  /**
   * Settles the rounds whose COMMIT went unanswered: a committed one wrote its calls (the next
   * round renews the lease from the database's figure), an aborted one is undone.
   */
  private async reconcileDoubtful(): Promise<void> {
    const pending = this.doubtful;
    this.doubtful = [];
    for (const [index, doubt] of pending.entries()) {
      let status: string | null;
      try {
        const result = await this.pool.query<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [
          doubt.xid,
        ]);
        status = result.rows[0]?.status ?? null;
      } catch (error) {
        this.onFailure(error);
        this.doubtful.push(...pending.slice(index));
        this.scheduleRetry();
        return;
      }
      if (status === 'in progress') {
        this.doubtful.push(doubt);
        this.scheduleRetry();
      } else if (status === 'committed') {
        for (const { entry, served } of doubt.sent) entry.sending -= served;
      } else {
        undoRound(doubt.sent);
      }
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.closing) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.reconcileDoubtful();
    }, 1000);
    this.retryTimer.unref();
  }

  /**
   * Adds the calls of dead servers' journals not yet in monthly_usage, each journal in one
   * transaction under its `count_journals` row's lock (so two servers sweeping at once add it once),
   * then deletes its folder. Returns the calls added.
   */
  recoverJournals(journals: readonly DeadJournal[]): Promise<number> {
    return recoverJournals(this.pool, journals, this.onFailure);
  }

  /** Rounds whose COMMIT is still in doubt (for tests and the shutdown). */
  get roundsInDoubt(): number {
    return this.doubtful.length;
  }
}
