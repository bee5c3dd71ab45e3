import { type ContractDocument, loadContract, readContractRules } from '@quotes/contract';

/** A plan's rules as the contract's `info.x-plans` states them. */
export interface PlanRules {
  readonly plan: string;
  /** null: unlimited, or set per key (see `perKey`). */
  readonly monthlyCalls: number | null;
  readonly filtersPerCall: number;
  /** Largest page; for per-key plans the default when the key sets none. */
  readonly maxLimit: number;
  readonly faithFilter: boolean;
  /** Allowance and page size may be set on each key (enterprise). */
  readonly perKey: boolean;
  /** What the allowance covers: each calendar month, or the key's validity (the trial's days). */
  readonly allowancePeriod: 'month' | 'validity';
  /** Days a key stays valid from issue; null: no limit. */
  readonly validityDays: number | null;
}

/** The oracle's plan rules, read from the contract's data (`info.x-plans`), never from its prose. */
export function planRules(document: ContractDocument = loadContract()): ReadonlyMap<string, PlanRules> {
  return new Map(
    readContractRules(document).plans.map((plan) => [
      plan.id,
      {
        plan: plan.id,
        monthlyCalls: plan.monthlyCalls,
        filtersPerCall: plan.filtersPerCall,
        maxLimit: plan.maxLimit,
        faithFilter: plan.faithFilter,
        perKey: plan.perKeyLimits,
        allowancePeriod: plan.allowancePeriod,
        validityDays: plan.validityDays,
      },
    ]),
  );
}
