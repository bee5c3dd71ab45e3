import { taxonomy } from '@quotes/contract';
import type { OperatorApi } from '@quotes/server';
import { type PlanRules, planRules } from '../contract/plans.js';
import type { DreddKeys } from '../dredd/transactionPlan.js';
import type { KeyUnderTest, PropertyKeys } from '../properties/runProperties.js';

/** Every key the layers use, each in the state it is meant to be in. */
export interface SuiteKeys {
  readonly dredd: DreddKeys;
  readonly properties: PropertyKeys;
}

export function rulesOf(plan: string, rules: ReadonlyMap<string, PlanRules>): PlanRules {
  const found = rules.get(plan);
  if (!found) throw new Error(`no plan ${plan} in the contract's plan table`);
  return found;
}

export function underTest(
  key: string,
  rule: PlanRules,
  overrides: { monthlyCalls?: number | null; maxLimit?: number } = {},
): KeyUnderTest {
  return {
    key,
    plan: rule.plan,
    monthlyCalls: overrides.monthlyCalls !== undefined ? overrides.monthlyCalls : rule.monthlyCalls,
    maxLimit: overrides.maxLimit ?? rule.maxLimit,
    filtersPerCall: rule.filtersPerCall,
    faithFilter: rule.faithFilter,
    allowancePeriod: rule.allowancePeriod,
    validityDays: rule.validityDays,
  };
}

/** Per-key numbers for the enterprise key: different from every plan's, so mixing them up shows. */
const enterpriseCalls = 5_000;
const enterpriseMaxLimit = 250;
/** Calls left on the nearly-used-up key: the property run crosses into 429 after these. */
const nearlyExhaustedLeft = 12;

/**
 * Provisions the keys through the server's own operator code (never raw SQL), on the database
 * the suite prepared: one active key per plan, and keys revoked, expired, used up and nearly
 * used up.
 */
export async function provisionLocalKeys(
  operator: OperatorApi,
  setUsage: (keyId: string, calls: number) => Promise<unknown>,
  rules: ReadonlyMap<string, PlanRules> = planRules(),
): Promise<SuiteKeys> {
  const create = async (
    client: string,
    plan: string,
    extra: { expiresAt?: Date; monthlyCalls?: number; maxLimit?: number } = {},
  ) => {
    // One person holding several trials and a key expired from the start: fixtures the operator's rules refuse by default.
    const issued = await operator.createKey({
      client,
      plan,
      email: 'conformance@example.test',
      allowAnotherTrial: true,
      allowPastExpiry: true,
      ...extra,
    });
    return issued;
  };
  const active: KeyUnderTest[] = [];
  for (const plan of taxonomy.plans) {
    const rule = rulesOf(plan, rules);
    if (rule.perKey) {
      const issued = await create(`conformance ${plan}`, plan, {
        monthlyCalls: enterpriseCalls,
        maxLimit: enterpriseMaxLimit,
      });
      active.push(underTest(issued.key, rule, { monthlyCalls: enterpriseCalls, maxLimit: enterpriseMaxLimit }));
    } else {
      active.push(underTest((await create(`conformance ${plan}`, plan)).key, rule));
    }
  }

  const limitedPlan = [...rules.values()].find(
    (rule) => rule.monthlyCalls !== null && !rule.perKey && rule.faithFilter && rule.filtersPerCall >= 5,
  );
  const oneFilterPlan = [...rules.values()].find((rule) => rule.filtersPerCall === 1);
  const stateful = [...rules.values()].find(
    (rule) => rule.monthlyCalls !== null && !rule.perKey && rule.filtersPerCall > 1,
  );
  if (!limitedPlan || !oneFilterPlan || !stateful)
    throw new Error('the plan table no longer has the plans the Dredd transactions rely on');

  const limited = await create('conformance dredd limited', limitedPlan.plan);
  const oneFilter = await create('conformance dredd one filter', oneFilterPlan.plan);
  const revoked = await create('conformance revoked', stateful.plan);
  await operator.revokeKey(revoked.id, 'conformance suite: a revoked key');
  const expired = await create('conformance expired', stateful.plan, { expiresAt: new Date(Date.now() - 86_400_000) });
  const exhausted = await create('conformance used up', stateful.plan);
  await setUsage(exhausted.id, stateful.monthlyCalls!);
  const nearly = await create('conformance nearly used up', oneFilterPlan.plan);
  await setUsage(nearly.id, oneFilterPlan.monthlyCalls! - nearlyExhaustedLeft);

  return {
    dredd: {
      limited: limited.key,
      oneFilter: oneFilter.key,
      other: oneFilter.key,
      revoked: revoked.key,
      expired: expired.key,
      exhausted: exhausted.key,
    },
    properties: {
      active,
      nearlyExhausted: underTest(nearly.key, oneFilterPlan),
      exhausted: underTest(exhausted.key, stateful),
      revoked: revoked.key,
      expired: expired.key,
    },
  };
}
