import { calendarMonthOf, secondsInMonth, secondsUntilReset } from '@quotes/accounts/rules';
import { remainingCalls } from '@quotes/accounts/rules';

export interface AllowanceState {
  /** Calls allowed this month; null for a plan without a monthly limit. */
  readonly limit: number | null;
  /** Calls counted this month, this one included. */
  readonly used: number;
}

/**
 * The allowance headers every counted response carries: the IETF draft-11 structured fields and
 * the widespread X-RateLimit-* trio. Without a limit only the reset is sent: no invented number.
 */
export function allowanceHeaders(state: AllowanceState, now: Date): Record<string, string> {
  const month = calendarMonthOf(now);
  const reset = String(Math.floor(month.next.getTime() / 1000));
  if (state.limit === null) return { 'X-RateLimit-Reset': reset };
  const remaining = remainingCalls(state.limit, state.used);
  const untilReset = secondsUntilReset(now);
  return {
    'RateLimit-Policy': `"monthly";q=${state.limit};w=${secondsInMonth(month)}`,
    RateLimit: `"monthly";r=${remaining};t=${untilReset}`,
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': reset,
  };
}

/** The 429's headers: the allowance, used up, and when to come back. */
export function exhaustedHeaders(limit: number, now: Date): Record<string, string> {
  return { ...allowanceHeaders({ limit, used: limit }, now), 'Retry-After': String(secondsUntilReset(now)) };
}
