import {
  type AllowancePeriod,
  allowancePeriod,
  type PlanRules,
  periodSeconds,
  remainingCalls,
  secondsUntilPeriodEnd,
} from '@quotes/accounts/rules';

export interface AllowanceState {
  /** Calls allowed in the period; null for a plan without a limit. */
  readonly limit: number | null;
  /** Calls counted in the period, this one included. */
  readonly used: number;
}

/** The period an allowance covers and the policy name the RateLimit fields give it. */
export interface AllowanceWindow extends AllowancePeriod {
  readonly policy: 'monthly' | 'validity';
}

/** A key's window at `now`: its plan's allowance period (allowancePeriod.ts) with the policy's name. */
export function allowanceWindow(
  plan: PlanRules,
  key: { createdAt: Date; expiresAt: Date | null },
  now: Date,
): AllowanceWindow {
  return { ...allowancePeriod(plan, key, now), policy: plan.allowancePeriod === 'validity' ? 'validity' : 'monthly' };
}

/**
 * The allowance headers every counted response carries: the IETF draft-11 structured fields and
 * the widespread X-RateLimit-* trio, over the allowance's period (a month, or a trial's
 * validity). Without a limit only the reset is sent: no invented number.
 */
export function allowanceHeaders(state: AllowanceState, window: AllowanceWindow, now: Date): Record<string, string> {
  const reset = String(Math.floor(window.end.getTime() / 1000));
  if (state.limit === null) return { 'X-RateLimit-Reset': reset };
  const remaining = remainingCalls(state.limit, state.used);
  return {
    'RateLimit-Policy': `"${window.policy}";q=${state.limit};w=${periodSeconds(window)}`,
    RateLimit: `"${window.policy}";r=${remaining};t=${secondsUntilPeriodEnd(window, now)}`,
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': reset,
  };
}

/** The 429's headers: the allowance, used up, and when to come back (the period's end, not always the 1st). */
export function exhaustedHeaders(limit: number, window: AllowanceWindow, now: Date): Record<string, string> {
  return {
    ...allowanceHeaders({ limit, used: limit }, window, now),
    'Retry-After': String(secondsUntilPeriodEnd(window, now)),
  };
}
