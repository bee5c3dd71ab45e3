import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { leaseChange } from '../domain/leaseSizing.js';
import type { CountJournal, DeadJournal } from './countJournal.js';
import { type Lane, type RoundAnswers, StatementRounds } from '@quotes/accounts';

/** A call admitted by the counter: it holds a place until it is answered. */
export interface CallSlot {
  /** The call was answered at a counted status: counted here, written at the next flush. Returns the month's calls, this one included. */
  served(): number;
  /** The call was not answered at a counted status: its place goes back, nothing is counted. */
  release(): void;
  /** Its answer is written: the call goes into the journal (after the write, so a kill never journals an unsent answer). */
  journal(): void;
}

/** Outcome of admitting one call: a slot to settle once it is answered, or the allowance is used up. */
export type CounterOutcome = { granted: true; slot: CallSlot } | { granted: false };

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
/** A key's month idle this long, with nothing to write or hold, is forgotten. */
const forgetAfterMs = 60_000;

// Statement 1 adds each key's calls answered since the last flush and locks its usage rows, in
// key order (the same in every process, so two servers' rounds never deadlock). Capped keys are
// in it even with nothing to add: their lease may change only under this lock.
export const flushStatement = `
  INSERT INTO monthly_usage AS u (key_id, month, calls)
  SELECT key_id, month, served FROM unnest($1::text[], $2::date[], $3::int[]) AS row(key_id, month, served)
  ORDER BY key_id, month
  ON CONFLICT (key_id, month) DO UPDATE SET calls = u.calls + excluded.calls
  RETURNING key_id, month::text AS month, calls, txid_current()::text AS xid`;

// Statement 2, after statement 1 in the same transaction (so its snapshot sees every other
// server's lease committed before this one took the locks): this server's lease of each capped
// key becomes what it kept (minus the calls just written and the places given back) plus a grant
// of at most min(asked, what remains, and with other servers live, what remains / (2 x live
// servers), at least one while any remains). So calls + every live lease stays at most the cap. Leases of other servers not renewed
// within the expiry are deleted (those of the keys locked here only: no other lock is taken).
const leaseStatement = `
  WITH lane AS (
    SELECT * FROM unnest($1::text[], $2::date[], $3::int[], $4::int[], $5::int[], $6::int[])
      AS lane(key_id, month, served, give_back, ask, cap)),
  expired AS (
    DELETE FROM allowance_leases a USING lane
    WHERE a.key_id = lane.key_id AND a.server_id <> $7 AND a.renewed_at < now() - $9::int * interval '1 millisecond'),
  held AS (
    SELECT lane.key_id, lane.month, lane.ask, lane.cap, u.calls,
      COALESCE((SELECT sum(a.reserved) FROM allowance_leases a
        WHERE a.key_id = lane.key_id AND a.month = lane.month AND a.server_id <> $7
          AND a.renewed_at >= now() - $9::int * interval '1 millisecond'), 0)::int AS others,
      GREATEST(COALESCE((SELECT a.reserved FROM allowance_leases a
        WHERE a.key_id = lane.key_id AND a.month = lane.month AND a.server_id = $7), 0) - lane.served - lane.give_back, 0) AS kept
    FROM lane JOIN monthly_usage u ON u.key_id = lane.key_id AND u.month = lane.month),
  sized AS (
    SELECT held.*, GREATEST(LEAST(ask, cap - calls - others - kept, CASE WHEN $8::int = 1 THEN ask
      ELSE GREATEST(1, (cap - calls - others - kept) / (2 * $8::int)) END), 0) AS granted
    FROM held),
  renewed AS (
    INSERT INTO allowance_leases AS a (server_id, key_id, month, reserved, renewed_at)
    SELECT $7, key_id, month, kept + granted, now() FROM sized WHERE kept + granted > 0
    ORDER BY key_id, month
    ON CONFLICT (server_id, key_id, month) DO UPDATE SET reserved = excluded.reserved, renewed_at = excluded.renewed_at),
  returned AS (
    DELETE FROM allowance_leases a USING sized
    WHERE a.server_id = $7 AND a.key_id = sized.key_id AND a.month = sized.month AND sized.kept + sized.granted = 0)
  SELECT key_id, month::text AS month, kept + granted AS reserved, granted, cap - calls - others - kept - granted AS remaining
  FROM sized`;

// The journal's generations up to this one are in monthly_usage (written in the round's transaction).
const journalStatement = `
  INSERT INTO count_journals AS j (server_id, written_generation, updated_at) VALUES ($1, $2, now())
  ON CONFLICT (server_id) DO UPDATE SET written_generation = GREATEST(j.written_generation, excluded.written_generation),
    updated_at = excluded.updated_at`;

// Keys read for quotes-usage with nothing to write: their count as committed.
const readStatement = `
  SELECT key_id, month::text AS month, calls FROM monthly_usage
  WHERE (key_id, month) IN (SELECT * FROM unnest($1::text[], $2::date[]))`;

// Counts commit without waiting for the WAL flush: the trade is in the README ("Counts do not
// wait for the disk").
const beginCountingTransaction = 'BEGIN; SET LOCAL synchronous_commit TO off';

/** A COMMIT sent without an answer: whether it took effect is known only from its transaction id. */
class UnansweredCommit extends Error {
  constructor(
    readonly xid: string,
    readonly failure: unknown,
  ) {
    super('COMMIT unanswered');
  }
}

interface FlushRow {
  key_id: string;
  month: string;
  calls: number;
  xid: string;
}

interface LeaseRow {
  key_id: string;
  month: string;
  reserved: number;
  granted: number;
  remaining: number;
}

/** One key's month on this server: what it answered and has not written, and its lease. */
class KeyMonth implements CallSlot {
  /** monthly_usage.calls as the last round returned it: every server's flushed calls. */
  flushedCalls = 0;
  /** Calls answered here and not yet in a round. */
  unflushed = 0;
  /** Calls answered here whose round is in flight, or whose COMMIT is in doubt. */
  sending = 0;
  /** Calls admitted and not yet answered: each holds a place of the lease. */
  running = 0;
  /** The lease (capped keys): calls this server may answer beyond flushedCalls, as the database holds it. */
  reserved = 0;
  /** Until when the lease may be used (performance.now ms); 0 while a round about it is in doubt. */
  trustedUntil = 0;
  /** Calls asked since the last timed flush, and in the interval before it. */
  askedSinceFlush = 0;
  demand = 0;
  /** The last round found nothing of the allowance left for this server (for mayGrant), under this limit. */
  exhaustedUnder: number | null = null;
  lastUsedAt = 0;
  readonly granted: CounterOutcome = { granted: true, slot: this };

  constructor(
    readonly keyId: string,
    readonly monthKey: string,
    public limit: number | null,
    private readonly journalFile: CountJournal | undefined,
  ) {}

  free(now: number): number {
    if (now >= this.trustedUntil) return 0;
    return this.reserved - this.unflushed - this.sending - this.running;
  }

  served(): number {
    this.running--;
    this.unflushed++;
    return this.flushedCalls + this.unflushed + this.sending;
  }

  release(): void {
    this.running--;
  }

  journal(): void {
    this.journalFile?.record(this.keyId, this.monthKey);
  }

  get idle(): boolean {
    return this.unflushed === 0 && this.sending === 0 && this.running === 0 && this.reserved === 0;
  }
}

/** What a round asks the counter's rounds: a timed flush, places for waiting calls, or a count to read. */
type RoundItem = { kind: 'flush' } | { kind: 'lease'; entry: KeyMonth } | { kind: 'read'; entry: KeyMonth };
type RoundAnswer = 'granted' | 'refused' | 'again' | number;

/** What one round sent for one key's month, to apply or undo once its outcome is known. */
interface Sent {
  readonly entry: KeyMonth;
  readonly served: number;
  readonly giveBack: number;
}

/** A round whose COMMIT got no answer: committed or not is asked later (txid_status). */
interface DoubtfulRound {
  readonly xid: string;
  readonly sent: readonly Sent[];
  /** Why the COMMIT went unanswered: what a call waiting on this lease is answered meanwhile. */
  readonly failure: unknown;
}

const flushItem: RoundItem = { kind: 'flush' };

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
   * Adds the calls of dead servers' journals not yet in monthly_usage, each journal in one
   * transaction under its `count_journals` row's lock (so two servers sweeping at once add it once),
   * then deletes its folder. Returns the calls added.
   */
  async recoverJournals(journals: readonly DeadJournal[]): Promise<number> {
    let recovered = 0;
    for (const journal of journals) {
      const client = await this.pool.connect();
      let failure: Error | undefined;
      try {
        await client.query('BEGIN');
        await client.query(
          'INSERT INTO count_journals (server_id, written_generation, updated_at) VALUES ($1, 0, now()) ON CONFLICT DO NOTHING',
          [journal.serverId],
        );
        const { rows } = await client.query<{ written_generation: number }>(
          'SELECT written_generation FROM count_journals WHERE server_id = $1 FOR UPDATE',
          [journal.serverId],
        );
        // Read under the lock: a sweep that committed first has moved the generation on.
        const { calls, last } = journal.read(rows[0]?.written_generation ?? 0);
        const lines = [...calls].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        if (lines.length > 0) {
          const keyMonths = lines.map(([line]) => line.split(' '));
          await client.query(flushStatement, [
            keyMonths.map(([keyId]) => keyId),
            keyMonths.map(([, monthKey]) => monthKey),
            lines.map(([, count]) => count),
          ]);
        }
        await client.query(
          'UPDATE count_journals SET written_generation = $2, updated_at = now() WHERE server_id = $1',
          [journal.serverId, last],
        );
        await client.query('COMMIT');
        for (const [, count] of lines) recovered += count;
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
        this.onFailure(error);
        continue;
      } finally {
        client.release(failure);
      }
      journal.remove();
    }
    return recovered;
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
    for (;;) {
      const answer = await this.rounds.ask(`lease|${entry.keyId}|${entry.monthKey}`, { kind: 'lease', entry });
      if (answer === 'granted') return entry.granted;
      if (answer === 'refused') return { granted: false };
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
      results = await this.inOwnTransaction(queries);
    } catch (error) {
      if (error instanceof UnansweredCommit) {
        // Frozen until settled: the lease may or may not have changed.
        for (const { entry } of sent) entry.trustedUntil = 0;
        this.doubtful.push({ xid: error.xid, sent, failure: error.failure });
        this.scheduleRetry();
        throw error.failure;
      }
      this.undo(sent);
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
    const remaining = new Map<KeyMonth, number>();
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
      remaining.set(entry, row.remaining);
    }
    return this.answers(remaining, waiting);
  }

  /** Each waiting call takes a free place in arrival order; without one it waits again, unless nothing remains. */
  private answers(
    remaining: Map<KeyMonth, number>,
    waiting: Map<KeyMonth, number>,
  ): RoundAnswers<RoundItem, RoundAnswer> {
    const now = performance.now();
    for (const entry of waiting.keys()) {
      const left = remaining.get(entry);
      entry.exhaustedUnder = left !== undefined && left <= 0 ? entry.limit : null;
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
      return entry.exhaustedUnder === entry.limit ? 'refused' : 'again';
    };
  }

  private rollDemand(entry: KeyMonth): void {
    entry.demand = entry.askedSinceFlush;
    entry.askedSinceFlush = 0;
  }

  /** A round that did not commit: its calls are written by the next, its given-back places are the lease's again. */
  private undo(sent: readonly Sent[]): void {
    for (const { entry, served, giveBack } of sent) {
      entry.sending -= served;
      entry.unflushed += served;
      entry.reserved += giveBack;
    }
  }

  /**
   * The round's statements in one transaction of their own, so a hang never leaves half a round:
   * a failure before COMMIT is sent closes the connection and PostgreSQL rolls it back; a COMMIT
   * without an answer throws UnansweredCommit with the transaction id.
   */
  private async inOwnTransaction(queries: readonly pg.QueryConfig[]): Promise<unknown[][]> {
    const client = await this.pool.connect();
    let failure: Error | undefined;
    try {
      // One round trip for both.
      await client.query(beginCountingTransaction);
      const results: unknown[][] = [];
      let xid: string | undefined;
      for (const query of queries) {
        const { rows } = await client.query(query);
        xid ??= (rows[0] as { xid?: string } | undefined)?.xid;
        results.push(rows);
      }
      try {
        await client.query('COMMIT');
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
        if (xid !== undefined) throw new UnansweredCommit(xid, error);
        throw error;
      }
      return results;
    } catch (error) {
      failure ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      // A connection that failed mid-transaction is closed, never reused.
      client.release(failure);
    }
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
        this.undo(doubt.sent);
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

  /** Rounds whose COMMIT is still in doubt (for tests and the shutdown). */
  get roundsInDoubt(): number {
    return this.doubtful.length;
  }
}
