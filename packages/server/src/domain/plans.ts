import type { FilterName } from './filterResolution.js';

/** A plan row as the rules need it (plans are data: see the plans table). */
export interface PlanRules {
  readonly id: string;
  readonly monthlyCalls: number | null;
  readonly filtersPerCall: number;
  readonly maxLimit: number;
  readonly faithFilter: boolean;
  /** Enterprise: allowance and largest page may be set on each key. */
  readonly perKeyLimits: boolean;
  /** Days a key stays valid from issue (trial); null: no limit from the plan. */
  readonly validityDays: number | null;
}

/** What a key overrides on a plan with per-key limits. */
export interface KeyOverrides {
  readonly monthlyCalls: number | null;
  readonly maxLimit: number | null;
}

export interface EffectiveLimits {
  /** null: no monthly limit (still counted, for usage). */
  readonly monthlyCalls: number | null;
  readonly maxLimit: number;
}

/**
 * The limits a key lives by: the plan's, or on a per-key plan (enterprise) the key's own where
 * set. An enterprise key without its own allowance has none, like platform.
 */
export function effectiveLimits(plan: PlanRules, key: KeyOverrides): EffectiveLimits {
  if (!plan.perKeyLimits) return { monthlyCalls: plan.monthlyCalls, maxLimit: plan.maxLimit };
  return { monthlyCalls: key.monthlyCalls ?? plan.monthlyCalls, maxLimit: key.maxLimit ?? plan.maxLimit };
}

/**
 * Step 4 of the contract's order of checks: the number of filters and the faith filter.
 * Returns the problem's detail, or undefined when the call is within the plan.
 */
export function planViolation(plan: PlanRules, given: readonly FilterName[]): string | undefined {
  if (given.includes('faith') && !plan.faithFilter) {
    return `The ${plan.id} plan does not include the faith filter; the professional, platform and enterprise plans do.`;
  }
  if (given.length > plan.filtersPerCall) {
    const noun = plan.filtersPerCall === 1 ? 'filter' : 'filters';
    return `The ${plan.id} plan allows ${plan.filtersPerCall} ${noun} per call; this call used ${given.length} (${given.join(', ')}).`;
  }
  return undefined;
}
