import { calendarMonthOf, isoSeconds } from './calendarMonth.js';
import { remainingCalls } from './plans.js';

/** The contract's Usage body. */
export interface UsageSummary {
  client: string;
  tier: string;
  calls_this_month: number;
  call_limit: number | null;
  calls_remaining: number | null;
  usage_pct: number;
  resets: string;
  resets_at: string;
}

export function usageSummary(input: {
  client: string;
  planId: string;
  calls: number;
  limit: number | null;
  now: Date;
}): UsageSummary {
  const { limit, calls } = input;
  const remaining = remainingCalls(limit, calls);
  // Rounded down, so 100 means the allowance is really used up; a zero allowance is used up from the start.
  const percent = limit === null ? 0 : limit === 0 ? 100 : Math.min(100, Math.floor((calls * 100) / limit));
  return {
    client: input.client,
    tier: input.planId,
    calls_this_month: calls,
    call_limit: limit,
    calls_remaining: remaining,
    usage_pct: percent,
    resets: 'Resets at 00:00 UTC on the 1st of each month',
    resets_at: isoSeconds(calendarMonthOf(input.now).next),
  };
}
