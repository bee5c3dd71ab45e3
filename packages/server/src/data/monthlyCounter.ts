import type pg from 'pg';

/** Outcome of counting one call: granted with the month's count after it, or the allowance is used up. */
export type CounterOutcome = { granted: true; used: number } | { granted: false };

// One atomic statement checks and increments: it grants min(n, limit - calls) of a batch of n
// and reports how many (last_grant) beside the new total. The INSERT branch is guarded too, so
// a zero allowance never creates a row. No row back means nothing was granted.
const incrementLimited = `
  INSERT INTO monthly_usage AS u (key_id, month, calls, last_grant)
  SELECT $1, $2::date, grant_size, grant_size FROM (SELECT LEAST($3::int, $4::int) AS grant_size) AS batch
  WHERE grant_size > 0
  ON CONFLICT (key_id, month) DO UPDATE
    SET calls = LEAST(u.calls + $3::int, $4::int),
        last_grant = LEAST(u.calls + $3::int, $4::int) - u.calls
    WHERE u.calls < $4::int
  RETURNING calls, last_grant, txid_current()::text AS xid`;

// Unlimited plans are still counted, for usage.
const incrementUnlimited = `
  INSERT INTO monthly_usage AS u (key_id, month, calls, last_grant) VALUES ($1, $2::date, $3::int, $3::int)
  ON CONFLICT (key_id, month) DO UPDATE SET calls = u.calls + $3::int, last_grant = $3::int
  RETURNING calls, last_grant, txid_current()::text AS xid`;

const giveBackStatement = `
  UPDATE monthly_usage SET calls = GREATEST(calls - $3::int, 0) WHERE key_id = $1 AND month = $2::date
  RETURNING txid_current()::text AS xid`;

/** A COMMIT sent without an answer: whether it took effect is known only from its transaction id. */
class UnansweredCommit extends Error {
  constructor(
    readonly xid: string,
    /** The statement's row, as it would have been committed. */
    readonly row: unknown,
    readonly failure: unknown,
  ) {
    super('COMMIT unanswered');
  }
}

interface Waiter {
  resolve(outcome: CounterOutcome): void;
  reject(error: unknown): void;
}

interface Lane {
  readonly keyId: string;
  readonly monthKey: string;
  readonly limit: number | null;
  readonly waiting: Waiter[];
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
 * The exact monthly counter. One key under load serialises on one row, so concurrent calls of
 * the same key in this process are coalesced: while one statement is in flight the next calls
 * wait, and the next statement asks for all of them at once, granting as many as remain. The
 * database stays the only source of truth, so the count is exact across processes too.
 */
export class MonthlyCounter {
  private readonly lanes = new Map<string, Lane>();
  private readonly debts = new Map<string, Debt>();
  private doubtful: DoubtfulGrant[] = [];
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly onGiveBackFailure: (error: unknown) => void = () => undefined,
  ) {}

  /** Counts one call of `keyId` in the month `monthKey` ('YYYY-MM-01'); `limit` null is unlimited. */
  acquire(keyId: string, monthKey: string, limit: number | null): Promise<CounterOutcome> {
    const laneKey = `${keyId}|${monthKey}|${limit ?? '-'}`;
    let lane = this.lanes.get(laneKey);
    const startNow = lane === undefined;
    if (lane === undefined) {
      lane = { keyId, monthKey, limit, waiting: [] };
      this.lanes.set(laneKey, lane);
    }
    const promise = new Promise<CounterOutcome>((resolve, reject) => lane.waiting.push({ resolve, reject }));
    if (startNow) void this.drain(laneKey, lane);
    return promise;
  }

  private async drain(laneKey: string, lane: Lane): Promise<void> {
    while (lane.waiting.length > 0) {
      const batch = lane.waiting.splice(0, lane.waiting.length);
      try {
        const outcome = await this.grant(lane, batch.length);
        batch.forEach((waiter, index) => {
          waiter.resolve(
            index < outcome.granted ? { granted: true, used: outcome.before + index + 1 } : { granted: false },
          );
        });
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
    this.lanes.delete(laneKey);
  }

  /**
   * One grant in its own transaction, so a hang can never leave a count behind for calls that were
   * answered 503: a failure before COMMIT is sent closes the connection and PostgreSQL rolls the
   * grant back; a COMMIT without an answer is remembered by its transaction id and, once the
   * database answers again, given back if it did commit (txid_status).
   */
  private async grant(lane: Lane, calls: number): Promise<{ granted: number; before: number }> {
    try {
      const row = await this.inOwnTransaction<{ calls: number; last_grant: number; xid: string }>({
        name: lane.limit === null ? 'monthly-usage-increment-unlimited' : 'monthly-usage-increment-limited',
        text: lane.limit === null ? incrementUnlimited : incrementLimited,
        values:
          lane.limit === null ? [lane.keyId, lane.monthKey, calls] : [lane.keyId, lane.monthKey, calls, lane.limit],
      });
      return { granted: row ? row.last_grant : 0, before: row ? row.calls - row.last_grant : 0 };
    } catch (error) {
      if (!(error instanceof UnansweredCommit)) throw error;
      const row = error.row as { last_grant: number };
      if (row.last_grant > 0) {
        this.doubtful.push({
          xid: error.xid,
          keyId: lane.keyId,
          monthKey: lane.monthKey,
          calls: row.last_grant,
          kind: 'grant',
        });
        this.scheduleRetry();
      }
      throw error.failure;
    }
  }

  /**
   * One statement (returning `xid`) in its own transaction. A failure before COMMIT closes the
   * connection, so PostgreSQL rolls it back; a COMMIT without an answer throws UnansweredCommit
   * carrying the transaction id and the statement's row.
   */
  private async inOwnTransaction<Row extends { xid: string }>(query: pg.QueryConfig): Promise<Row | undefined> {
    const client = await this.pool.connect();
    let failure: Error | undefined;
    try {
      await client.query('BEGIN');
      const row = (await client.query<Row>(query)).rows[0];
      try {
        await client.query('COMMIT');
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
        if (row) throw new UnansweredCommit(row.xid, row, error);
        throw error;
      }
      return row;
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
