import { allowanceExhausted, allowanceHeaders, calendarMonthOf } from '@quotes/server/data-free-checks';

/**
 * The calls of each key this month, counted in memory as the server counts them in its
 * database: a counted answer costs one call, a call beyond the plan's allowance is refused with
 * the server's 429, and the allowance headers are the server's, for this count. Counts start
 * again at 0 with each calendar month (UTC) and each start of the mock.
 */
export class CallLedger {
  private month = '';
  private readonly used = new Map<string, number>();

  constructor(
    private readonly monthlyCalls: number | null,
    private readonly clock: () => Date,
  ) {}

  /** Calls counted for `key` this month. */
  usedBy(key: string): number {
    this.turnMonth(this.clock());
    return this.used.get(key) ?? 0;
  }

  /** Counts one call of `key`: the allowance headers its answer carries, or the 429 thrown. */
  count(key: string): Record<string, string> {
    const now = this.clock();
    this.turnMonth(now);
    const used = (this.used.get(key) ?? 0) + 1;
    if (this.monthlyCalls !== null && used > this.monthlyCalls) throw allowanceExhausted(this.monthlyCalls, now);
    this.used.set(key, used);
    return allowanceHeaders({ limit: this.monthlyCalls, used }, now);
  }

  private turnMonth(now: Date): void {
    const month = calendarMonthOf(now).key;
    if (month === this.month) return;
    this.month = month;
    this.used.clear();
  }
}
