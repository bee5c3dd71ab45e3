import { type PlanRules, rules } from '@quotes/contract';
import { type Kysely, sql } from 'kysely';
import type { Database, Plan } from './schema.js';

/**
 * Writes the contract's plans (`info.x-plans` in openapi/quotes.yaml) into the plans table, new
 * rows and changed ones alike, so the rules every server enforces are the contract's. Run after
 * the migrations on every start: migrations are frozen in time, the contract is not. A plan the
 * contract no longer lists stays, since keys may still refer to it.
 */
export async function seedPlans(db: Kysely<Database>, plans: readonly PlanRules[] = rules.plans): Promise<void> {
  if (plans.length === 0) return;
  await db
    .insertInto('plans')
    .values(
      plans.map((plan) => ({
        id: plan.id,
        monthly_calls: plan.monthlyCalls,
        filters_per_call: plan.filtersPerCall,
        max_limit: plan.maxLimit,
        faith_filter: plan.faithFilter,
        validity_days: plan.validityDays,
        per_key_limits: plan.perKeyLimits,
      })),
    )
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet({
        monthly_calls: sql.ref('excluded.monthly_calls'),
        filters_per_call: sql.ref('excluded.filters_per_call'),
        max_limit: sql.ref('excluded.max_limit'),
        faith_filter: sql.ref('excluded.faith_filter'),
        validity_days: sql.ref('excluded.validity_days'),
        per_key_limits: sql.ref('excluded.per_key_limits'),
      }),
    )
    .execute();
}

/**
 * A row of the plans table as the rules it holds. The burst limit, self service, allowance period
 * and price are not stored (the seed leaves them open): they are the contract's for that plan, none for a plan the
 * contract no longer lists.
 */
export function planRulesOfRow(row: Plan): PlanRules {
  return {
    id: row.id,
    monthlyCalls: row.monthly_calls,
    filtersPerCall: row.filters_per_call,
    maxLimit: row.max_limit,
    faithFilter: row.faith_filter,
    validityDays: row.validity_days,
    perKeyLimits: row.per_key_limits,
    requestsPerSecond: rules.planById.get(row.id)?.requestsPerSecond ?? null,
    selfService: rules.planById.get(row.id)?.selfService ?? false,
    allowancePeriod: rules.planById.get(row.id)?.allowancePeriod ?? 'month',
    price: rules.planById.get(row.id)?.price ?? null,
  };
}
