import type { PlanRules } from '@quotes/contract';
import {
  type AllowanceWindow,
  allowanceExhausted,
  allowanceHeaders,
  allowanceWindow,
  type Problem,
} from '@quotes/server/data-free-checks';

const dayMs = 86_400_000;

/**
 * The calls of each key in the mock plan's allowance period, counted in memory as the server
 * counts them in its database: a counted answer costs one call, a call beyond the plan's
 * allowance is refused with the server's 429, and the allowance headers are the server's, for
 * this count. The period is the server's rule (allowancePeriod): each calendar month (UTC), or on
 * the trial plan the 30 days of a key issued when the mock started. Counts start at 0 with each
 * period and each start of the mock.
 */
export class CallLedger {
  private periodStart = Number.NaN;
  private readonly used = new Map<string, number>();
  /** The key every caller is taken to hold: issued at the mock's start, expiring as its plan says. */
  private readonly key: { createdAt: Date; expiresAt: Date | null };

  constructor(
    private readonly plan: PlanRules,
    private readonly clock: () => Date,
  ) {
    const started = clock();
    const days = plan.validityDays;
    this.key = { createdAt: started, expiresAt: days === null ? null : new Date(started.getTime() + days * dayMs) };
  }

  /** The mock key's allowance period now. */
  window(now: Date = this.clock()): AllowanceWindow {
    return allowanceWindow(this.plan, this.key, now);
  }

  /** Calls counted for `key` in the current period. */
  usedBy(key: string): number {
    this.turnPeriod(this.window());
    return this.used.get(key) ?? 0;
  }

  /** Counts one call of `key`: the allowance headers its answer carries, or the 429 thrown. */
  count(key: string): Record<string, string> {
    const now = this.clock();
    const window = this.window(now);
    this.turnPeriod(window);
    const limit = this.plan.monthlyCalls;
    const used = (this.used.get(key) ?? 0) + 1;
    if (limit !== null && used > limit) throw allowanceExhausted(this.plan, limit, window, now);
    this.used.set(key, used);
    return allowanceHeaders({ limit, used }, window, now);
  }

  /** The server's 429 for this plan's allowance used up now (`Prefer: code=429`); none for a plan without one. */
  exhausted(): Problem | undefined {
    const limit = this.plan.monthlyCalls;
    if (limit === null) return undefined;
    const now = this.clock();
    return allowanceExhausted(this.plan, limit, this.window(now), now);
  }

  private turnPeriod(window: AllowanceWindow): void {
    const start = window.start.getTime();
    if (start === this.periodStart) return;
    this.periodStart = start;
    this.used.clear();
  }
}
