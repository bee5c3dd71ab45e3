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
  RETURNING calls, last_grant`;

// Unlimited plans are still counted, for usage.
const incrementUnlimited = `
  INSERT INTO monthly_usage AS u (key_id, month, calls, last_grant) VALUES ($1, $2::date, $3::int, $3::int)
  ON CONFLICT (key_id, month) DO UPDATE SET calls = u.calls + $3::int, last_grant = $3::int
  RETURNING calls, last_grant`;

const giveBackStatement = `
  UPDATE monthly_usage SET calls = GREATEST(calls - $3::int, 0) WHERE key_id = $1 AND month = $2::date`;

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

/**
 * The exact monthly counter. One key under load serialises on one row, so concurrent calls of
 * the same key in this process are coalesced: while one statement is in flight the next calls
 * wait, and the next statement asks for all of them at once, granting as many as remain. The
 * database stays the only source of truth, so the count is exact across processes too.
 */
export class MonthlyCounter {
  private readonly lanes = new Map<string, Lane>();
  private readonly debts = new Map<string, Debt>();
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
        const result = await this.pool.query<{ calls: number; last_grant: number }>({
          name: lane.limit === null ? 'monthly-usage-increment-unlimited' : 'monthly-usage-increment-limited',
          text: lane.limit === null ? incrementUnlimited : incrementLimited,
          values:
            lane.limit === null
              ? [lane.keyId, lane.monthKey, batch.length]
              : [lane.keyId, lane.monthKey, batch.length, lane.limit],
        });
        const row = result.rows[0];
        const granted = row ? row.last_grant : 0;
        const before = row ? row.calls - row.last_grant : 0;
        batch.forEach((waiter, index) => {
          waiter.resolve(index < granted ? { granted: true, used: before + index + 1 } : { granted: false });
        });
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
    this.lanes.delete(laneKey);
  }

  /**
   * Gives back calls that were counted but answered 5xx. When the database cannot take it now
   * (the usual reason for a 5xx), the debt is kept and retried until it can.
   */
  async giveBack(keyId: string, monthKey: string, calls = 1): Promise<void> {
    try {
      await this.pool.query({
        name: 'monthly-usage-give-back',
        text: giveBackStatement,
        values: [keyId, monthKey, calls],
      });
    } catch (error) {
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
    const debts = [...this.debts.values()];
    this.debts.clear();
    for (const debt of debts) await this.giveBack(debt.keyId, debt.monthKey, debt.calls);
  }

  get pendingGiveBacks(): number {
    let total = 0;
    for (const debt of this.debts.values()) total += debt.calls;
    return total;
  }

  close(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }
}
