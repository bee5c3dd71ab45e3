import type pg from 'pg';
import { type Lane, type RoundAnswers, StatementRounds } from './statementRounds.js';

/** Outcome of counting one call: granted with the month's count after it, or the allowance is used up. */
export type CounterOutcome = { granted: true; used: number } | { granted: false };

/** The cap an unlimited key is counted against: its calls are counted too, for usage. */
const unlimited = 2_147_483_647;

// One statement grants a whole round: for each key of one month it grants min(asked, cap - calls)
// and reports how many (last_grant) beside the new total; a key with nothing granted returns no
// row. The conflicting row's update may use the proposed grant (excluded.calls, already at most
// the cap): when it was cut to the cap, calls + asked and calls + cap both end at the cap. The
// INSERT branch is guarded too, so a zero allowance never creates a row. Rows are locked in key
// order, the same in every process, so two servers' rounds cannot deadlock.
const grantRoundStatement = `
  WITH lane AS (SELECT * FROM unnest($1::text[], $3::int[], $4::int[]) AS lane(key_id, asked, cap))
  INSERT INTO monthly_usage AS u (key_id, month, calls, last_grant)
  SELECT key_id, $2::date, LEAST(asked, cap), LEAST(asked, cap) FROM lane
  WHERE LEAST(asked, cap) > 0
  ORDER BY key_id
  ON CONFLICT (key_id, month) DO UPDATE
    SET calls = LEAST(u.calls + excluded.calls, (SELECT cap FROM lane WHERE lane.key_id = u.key_id)),
        last_grant = LEAST(u.calls + excluded.calls, (SELECT cap FROM lane WHERE lane.key_id = u.key_id)) - u.calls
    WHERE u.calls < (SELECT cap FROM lane WHERE lane.key_id = u.key_id)
  RETURNING key_id, calls, last_grant, txid_current()::text AS xid`;

/** Keys asked for in one statement at most. */
const maxLanesPerRound = 500;

const giveBackStatement = `
  UPDATE monthly_usage SET calls = GREATEST(calls - $3::int, 0) WHERE key_id = $1 AND month = $2::date
  RETURNING txid_current()::text AS xid`;

// Counts commit without waiting for the WAL flush: the trade is in the README ("Counts do not
// wait for the disk").
const beginCountingTransaction = 'BEGIN; SET LOCAL synchronous_commit TO off';

/** A COMMIT sent without an answer: whether it took effect is known only from its transaction id. */
class UnansweredCommit extends Error {
  constructor(
    readonly xid: string,
    /** The statement's rows, as they would have been committed. */
    readonly rows: readonly unknown[],
    readonly failure: unknown,
  ) {
    super('COMMIT unanswered');
  }
}

/** The calls of one key, month and limit waiting for the next round. */
interface CountedKey {
  readonly keyId: string;
  readonly monthKey: string;
  readonly limit: number | null;
}

interface GrantRow {
  key_id: string;
  calls: number;
  last_grant: number;
  xid: string;
}

interface Debt {
  readonly keyId: string;
  readonly monthKey: string;
  calls: number;
}

/** A grant or a give-back whose COMMIT got no answer (the database hung or the connection broke): committed or not is asked later. */
interface DoubtfulGrant extends Debt {
  readonly xid: string;
  readonly kind: 'grant' | 'give-back';
}

/**
 * The exact monthly counter. Every call is granted by PostgreSQL, the only source of truth, so
 * the count is exact across processes. Calls are granted in rounds: while one round's statement
 * is in flight, the calls that arrive wait, and the next round asks for all of them at once, every
 * key in one statement, granting each key as many as remain. A call arriving at an idle counter
 * goes out at once; under load the database sees one transaction per round instead of one per
 * call or per key.
 */
export class MonthlyCounter {
  private readonly rounds = new StatementRounds<CountedKey, CounterOutcome>({
    run: (round) => this.runRound(round),
    maxLanes: maxLanesPerRound,
    joins: (lane, round) => this.joinsRound(lane, round),
  });
  /** The keys of the round being taken (a new Set each round: see "Memory on the request path"). */
  private keysInRound = new Set<string>();
  private readonly debts = new Map<string, Debt>();
  private doubtful: DoubtfulGrant[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  /** Lanes (key, month, limit) whose last round was refused a call, for mayGrant. */
  private readonly usedUp = new Set<string>();
  private usedUpMonth = '';
  /** Rounds run (failed ones too), the calls they asked for and granted, and their time: read by the metrics. */
  readonly roundStats = { rounds: 0, failed: 0, asked: 0, granted: 0, seconds: 0 };

  constructor(
    private readonly pool: pg.Pool,
    private readonly onGiveBackFailure: (error: unknown) => void = () => undefined,
  ) {}

  /**
   * False when this key's last round in this process was refused a call under this limit: its
   * next call will most likely be refused too. A guess for scheduling, never a decision.
   */
  mayGrant(keyId: string, monthKey: string, limit: number | null): boolean {
    return limit === null || !this.usedUp.has(`${keyId}|${monthKey}|${limit}`);
  }

  /** Counts one call of `keyId` in the month `monthKey` ('YYYY-MM-01'); `limit` null is unlimited. */
  acquire(keyId: string, monthKey: string, limit: number | null): Promise<CounterOutcome> {
    return this.rounds.ask(`${keyId}|${monthKey}|${limit ?? '-'}`, { keyId, monthKey, limit });
  }

  /**
   * A round holds the lanes of the oldest lane's month, one per key (a key asked for under two
   * limits at once, when its plan changed, has its second lane in the next round).
   */
  private joinsRound(lane: CountedKey, round: readonly Lane<CountedKey>[]): boolean {
    const first = round[0]?.item;
    if (first === undefined) this.keysInRound = new Set();
    else if (lane.monthKey !== first.monthKey || this.keysInRound.has(lane.keyId)) return false;
    this.keysInRound.add(lane.keyId);
    return true;
  }

  /** Grants a round and answers its calls in arrival order: the first `granted` of each lane get one. */
  private async runRound(round: readonly Lane<CountedKey>[]): Promise<RoundAnswers<CountedKey, CounterOutcome>> {
    const started = performance.now();
    let granted: Map<string, { granted: number; before: number }>;
    try {
      granted = await this.grant(round);
    } catch (error) {
      this.noteRound(round, undefined, started);
      throw error;
    }
    this.noteRound(round, granted, started);
    for (const lane of round) {
      const outcome = granted.get(lane.item.keyId);
      this.noteRefusals(lane.item, (outcome?.granted ?? 0) < lane.callers);
    }
    return ({ item }, caller) => {
      const outcome = granted.get(item.keyId);
      return outcome !== undefined && caller < outcome.granted
        ? { granted: true, used: outcome.before + caller + 1 }
        : { granted: false };
    };
  }

  private noteRound(
    round: readonly Lane<CountedKey>[],
    granted: Map<string, { granted: number }> | undefined,
    started: number,
  ): void {
    const stats = this.roundStats;
    stats.rounds++;
    stats.seconds += (performance.now() - started) / 1000;
    for (const lane of round) stats.asked += lane.callers;
    if (granted === undefined) stats.failed++;
    else for (const outcome of granted.values()) stats.granted += outcome.granted;
  }

  private noteRefusals(lane: CountedKey, refused: boolean): void {
    if (lane.limit === null) return;
    if (lane.monthKey !== this.usedUpMonth) {
      this.usedUp.clear();
      this.usedUpMonth = lane.monthKey;
    }
    const laneKey = `${lane.keyId}|${lane.monthKey}|${lane.limit}`;
    if (refused) this.usedUp.add(laneKey);
    else this.usedUp.delete(laneKey);
  }

  /**
   * One round in its own transaction, so a hang can never leave a count behind for calls that
   * were answered 503: a failure before COMMIT is sent closes the connection and PostgreSQL rolls
   * the grants back; a COMMIT without an answer is remembered by its transaction id and, once the
   * database answers again, given back if it did commit (txid_status).
   */
  private async grant(round: readonly Lane<CountedKey>[]): Promise<Map<string, { granted: number; before: number }>> {
    const monthKey = round[0]?.item.monthKey ?? '';
    const granted = new Map<string, { granted: number; before: number }>();
    try {
      const rows = await this.inOwnTransaction<GrantRow>({
        name: 'monthly-usage-grant-round',
        text: grantRoundStatement,
        values: [
          round.map(({ item }) => item.keyId),
          monthKey,
          round.map((lane) => lane.callers),
          round.map(({ item }) => item.limit ?? unlimited),
        ],
      });
      for (const row of rows) granted.set(row.key_id, { granted: row.last_grant, before: row.calls - row.last_grant });
      return granted;
    } catch (error) {
      if (!(error instanceof UnansweredCommit)) throw error;
      for (const row of error.rows as GrantRow[]) {
        if (row.last_grant <= 0) continue;
        this.doubtful.push({ xid: error.xid, keyId: row.key_id, monthKey, calls: row.last_grant, kind: 'grant' });
      }
      this.scheduleRetry();
      throw error.failure;
    }
  }

  /**
   * One statement (returning `xid`) in its own transaction. A failure before COMMIT closes the
   * connection, so PostgreSQL rolls it back; a COMMIT without an answer throws UnansweredCommit
   * carrying the transaction id and the statement's rows.
   */
  private async inOwnTransaction<Row extends { xid: string }>(query: pg.QueryConfig): Promise<Row[]> {
    const client = await this.pool.connect();
    let failure: Error | undefined;
    try {
      // One round trip for both.
      await client.query(beginCountingTransaction);
      const { rows } = await client.query<Row>(query);
      try {
        await client.query('COMMIT');
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
        const xid = rows[0]?.xid;
        if (xid !== undefined) throw new UnansweredCommit(xid, rows, error);
        throw error;
      }
      return rows;
    } catch (error) {
      failure ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      // A connection that failed mid-transaction is closed, never reused.
      client.release(failure);
    }
  }

  /** Settles the COMMITs that went unanswered: committed grants are given back, aborted give-backs are owed again. */
  private async reconcileDoubtful(): Promise<void> {
    const pending = this.doubtful;
    this.doubtful = [];
    for (const [index, grant] of pending.entries()) {
      let status: string | null;
      try {
        const result = await this.pool.query<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [
          grant.xid,
        ]);
        status = result.rows[0]?.status ?? null;
      } catch (error) {
        this.onGiveBackFailure(error);
        this.doubtful.push(...pending.slice(index));
        this.scheduleRetry();
        return;
      }
      if (status === 'in progress') {
        this.doubtful.push(grant);
        this.scheduleRetry();
      } else if (status === 'committed' ? grant.kind === 'grant' : status === 'aborted' && grant.kind === 'give-back') {
        await this.giveBack(grant.keyId, grant.monthKey, grant.calls);
      }
    }
  }

  /**
   * Gives back calls that were counted but answered 5xx. When the database cannot take it now
   * (the usual reason for a 5xx), the debt is kept and retried until it can.
   */
  async giveBack(keyId: string, monthKey: string, calls = 1): Promise<void> {
    try {
      await this.inOwnTransaction({
        name: 'monthly-usage-give-back',
        text: giveBackStatement,
        values: [keyId, monthKey, calls],
      });
    } catch (error) {
      if (error instanceof UnansweredCommit) {
        // Retried blindly, a give-back that did commit would be given twice.
        this.onGiveBackFailure(error.failure);
        this.doubtful.push({ xid: error.xid, keyId, monthKey, calls, kind: 'give-back' });
        this.scheduleRetry();
        return;
      }
      this.onGiveBackFailure(error);
      const debtKey = `${keyId}|${monthKey}`;
      const debt = this.debts.get(debtKey);
      if (debt) debt.calls += calls;
      else this.debts.set(debtKey, { keyId, monthKey, calls });
      this.scheduleRetry();
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.settleDebts();
    }, 1000);
    this.retryTimer.unref();
  }

  /** Retries every pending give-back once; what still fails stays pending. */
  async settleDebts(): Promise<void> {
    await this.reconcileDoubtful();
    const debts = [...this.debts.values()];
    this.debts.clear();
    for (const debt of debts) await this.giveBack(debt.keyId, debt.monthKey, debt.calls);
  }

  get pendingGiveBacks(): number {
    let total = 0;
    for (const debt of this.debts.values()) total += debt.calls;
    for (const grant of this.doubtful) total += grant.calls;
    return total;
  }

  close(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }
}
