import { problemTypePrefix, taxonomy } from '@quotes/contract';
import type { OperatorApi } from '@quotes/server';
import { operationById } from '../contract/operations.js';
import { type PlanRules, planRules } from '../contract/plans.js';
import type { DreddKeys } from '../dredd/transactionPlan.js';
import type { ObservedClient } from '../http/observedClient.js';
import type { KeyUnderTest, PropertyKeys } from '../properties/runProperties.js';
import type { Report } from '../report/report.js';

/** Every key the layers use, each in the state it is meant to be in. */
export interface SuiteKeys {
  readonly dredd: DreddKeys;
  readonly properties: PropertyKeys;
}

function rulesOf(plan: string, rules: ReadonlyMap<string, PlanRules>): PlanRules {
  const found = rules.get(plan);
  if (!found) throw new Error(`no plan ${plan} in the contract's plan table`);
  return found;
}

function underTest(
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
  await operator.setUsage(exhausted.id, stateful.monthlyCalls!);
  const nearly = await create('conformance nearly used up', oneFilterPlan.plan);
  await operator.setUsage(nearly.id, oneFilterPlan.monthlyCalls! - nearlyExhaustedLeft);

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

/** Keys an operator hands the CLI for a deployment the suite cannot provision. */
export interface GivenKeys {
  /** Active keys by plan. */
  readonly plans: Readonly<Partial<Record<string, string>>>;
  readonly revoked?: string;
  readonly expired?: string;
  readonly exhausted?: string;
}

type Body = Record<string, unknown>;

/**
 * Checks that each given key really is what it was given as (its plan, its state) and learns
 * what the contract leaves per key (an enterprise key's allowance and largest page).
 */
export async function describeGivenKeys(
  client: ObservedClient,
  given: GivenKeys,
  report: Report,
  rules: ReadonlyMap<string, PlanRules> = planRules(),
): Promise<SuiteKeys> {
  const layer = 'Keys';
  const usagePath = operationById('getUsage').path;
  const usage = async (key: string) => {
    const exchange = await client.get(usagePath, { 'X-API-Key': key });
    return { status: exchange.response.status, body: (exchange.json ?? {}) as Body };
  };
  const active: KeyUnderTest[] = [];
  for (const [plan, key] of Object.entries(given.plans)) {
    if (!key) continue;
    const { status, body } = await usage(key);
    if (status !== 200 || body.tier !== plan) {
      report.fail(
        layer,
        `--key-${plan}`,
        `expected an active ${plan} key; quotes-usage answered ${status} ${String(body.tier ?? body.type ?? '')}`,
      );
      continue;
    }
    const rule = rulesOf(plan, rules);
    let maxLimit = rule.maxLimit;
    if (rule.perKey) {
      // The applied page size of the largest request the contract allows is the key's own limit.
      const exchange = await client.get(`${operationById('listQuotes').path}?limit=1000`, { 'X-API-Key': key });
      const applied = (exchange.json as Body | undefined)?.limit;
      if (typeof applied === 'number') maxLimit = applied;
    }
    active.push(underTest(key, rule, { monthlyCalls: (body.call_limit as number | null) ?? null, maxLimit }));
    report.pass(layer, `--key-${plan}`, `active ${plan} key, ${String(body.calls_this_month)} calls this month`);
  }
  const state = async (flag: string, key: string | undefined, kind: string): Promise<string | undefined> => {
    if (!key) return undefined;
    const { status, body } = await usage(key);
    if (status === 403 && body.type === `${problemTypePrefix}${kind}`) {
      report.pass(layer, flag, `answers ${kind}`);
      return key;
    }
    report.fail(layer, flag, `expected 403 ${kind} from quotes-usage, got ${status} ${String(body.type ?? '')}`);
    return undefined;
  };
  const revoked = await state('--key-revoked', given.revoked, 'revoked-api-key');
  const expired = await state('--key-expired', given.expired, 'expired-api-key');
  let exhausted: KeyUnderTest | undefined;
  if (given.exhausted) {
    const { status, body } = await usage(given.exhausted);
    const plan = String(body.tier);
    if (status === 200 && body.calls_remaining === 0 && rules.has(plan)) {
      exhausted = underTest(given.exhausted, rulesOf(plan, rules), { monthlyCalls: body.call_limit as number });
      report.pass(
        layer,
        '--key-exhausted',
        `${plan} key, ${String(body.calls_this_month)} of ${String(body.call_limit)} calls used`,
      );
    } else {
      report.fail(
        layer,
        '--key-exhausted',
        `expected a key with no calls left; quotes-usage answered ${status}, calls_remaining ${String(body.calls_remaining)}`,
      );
    }
  }
  const find = (predicate: (key: KeyUnderTest) => boolean) => active.find(predicate)?.key;
  const limited = find((key) => key.monthlyCalls !== null && key.faithFilter && key.filtersPerCall >= 5);
  const oneFilter = find((key) => key.filtersPerCall === 1);
  const other = find((key) => key.key !== limited);
  return {
    dredd: { limited, oneFilter, other, revoked, expired, exhausted: exhausted?.key },
    properties: { active, exhausted, revoked, expired },
  };
}
