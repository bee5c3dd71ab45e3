import { type AllowancePeriod, calendarMonthOf, earlierMonthsOf } from '@quotes/accounts/rules';
import { leaseExpiryMs, type MonthlyCounter } from './monthlyCounter.js';

/** Keys whose earlier months are remembered at most; past it the memory starts again (a read each). */
const maxRemembered = 100_000;

/**
 * The calls a key made in the months of its allowance period before the current one (a trial
 * issued on the 29th: its calls of the 29th to the 31st), which its cap for this month leaves
 * out: the monthly counter stays exact per key and month, and the period's allowance holds
 * across the 1st. Read through the counter (this server's unwritten calls included); remembered
 * once the month is older than a lease's expiry, when every live server has written the earlier
 * month's calls and a stopped one's lease is gone.
 */
export class EarlierPeriodCalls {
  private readonly settled = new Map<string, number>();

  constructor(private readonly counter: MonthlyCounter) {}

  /** The calls, at once when none can exist (a monthly plan, a period begun this month) or they are remembered. */
  of(keyId: string, period: AllowancePeriod, now: Date): number | Promise<number> {
    const months = earlierMonthsOf(period, now);
    if (months.length === 0) return 0;
    const current = calendarMonthOf(now);
    const id = `${keyId}|${current.key}`;
    const known = this.settled.get(id);
    if (known !== undefined) return known;
    return this.read(keyId, months, id, now.getTime() - current.start.getTime() >= leaseExpiryMs);
  }

  private async read(keyId: string, months: readonly string[], id: string, final: boolean): Promise<number> {
    let total = 0;
    for (const month of months) total += await this.counter.callsInMonth(keyId, month);
    if (final) {
      if (this.settled.size >= maxRemembered) this.settled.clear();
      this.settled.set(id, total);
    }
    return total;
  }
}
