import { type PlanRules, rules } from '@quotes/contract';
import type { FilterName } from './filterResolution.js';

/** A plan's rules: the contract's `info.x-plans`, as the plans table holds them. */
export type { PlanRules };

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
    return `The ${plan.id} plan does not include the faith filter; ${plansWhere((rule) => rule.faithFilter)} do.`;
  }
  if (given.length > plan.filtersPerCall) {
    const noun = plan.filtersPerCall === 1 ? 'filter' : 'filters';
    return `The ${plan.id} plan allows ${plan.filtersPerCall} ${noun} per call; this call used ${given.length} (${given.join(', ')}).`;
  }
  return undefined;
}

/** "the professional, platform and enterprise plans": the contract's plans that have a property. */
export function plansWhere(test: (plan: PlanRules) => boolean): string {
  const names = rules.plans.filter(test).map((plan) => plan.id);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? 'no');
  return `the ${list} plan${names.length === 1 ? '' : 's'}`;
}

/** Calls left of a monthly allowance after `used` (never below 0); null without a monthly limit. */
export function remainingCalls(monthlyCalls: number | null, used: number): number | null {
  return monthlyCalls === null ? null : Math.max(0, monthlyCalls - used);
}
