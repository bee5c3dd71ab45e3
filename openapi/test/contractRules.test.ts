import { describe, expect, it } from 'vitest';
import {
  cloneContract,
  describedContract,
  lengthOfText,
  loadContract,
  planTables,
  readContractRules,
  rules,
  taxonomy,
} from '../src/index.js';

type Plans = Array<Record<string, unknown>>;
type Json = Record<string, unknown>;
const plansOf = (document: object) => (document as { info: { 'x-plans': Plans } }).info['x-plans'];

describe('the rules in the contract', () => {
  it('read every plan from info.x-plans', () => {
    expect(rules.plans.map((plan) => plan.id)).toEqual(taxonomy.plans);
    expect(rules.planById.get('trial')).toEqual({
      id: 'trial',
      monthlyCalls: 1000,
      filtersPerCall: 1,
      maxLimit: 10,
      faithFilter: false,
      validityDays: 30,
      perKeyLimits: false,
      requestsPerSecond: 10,
      selfService: true,
      allowancePeriod: 'validity',
      price: { amount: 0, currency: 'USD', per: 'key' },
    });
    expect(rules.plans.map((plan) => plan.allowancePeriod)).toEqual(['validity', 'month', 'month', 'month', 'month']);
    expect(rules.planById.get('starter')?.price).toEqual({ amount: 49, currency: 'USD', per: 'month' });
    expect(rules.planById.get('platform')?.price).toEqual({ amount: 199, currency: 'USD', per: 'month' });
    expect(rules.planById.get('professional')?.price).toBeNull();
    expect(rules.plans.filter((plan) => plan.selfService).map((plan) => plan.id)).toEqual(['trial']);
    expect(rules.planById.get('enterprise')?.requestsPerSecond).toBeNull();
    expect(rules.pageCeiling).toBe(1000);
  });

  it('keep the prose plan tables equal to the data', () => {
    const description = String((loadContract().info as { description?: string }).description);
    for (const table of planTables(rules)) expect(description).toContain(`${table}\n`);
  });

  it('read the counted statuses, filters and length bands', () => {
    expect(Object.fromEntries(rules.countedStatuses)).toEqual({
      getRandomQuote: [200, 404],
      listQuotes: [200],
      listFilterValues: [200, 304],
      getUsage: [],
      requestKey: [],
    });
    expect(rules.filters.map((filter) => `${filter.name}:${filter.match}`)).toEqual([
      'category:substring',
      'mood:substring',
      'length:exact',
      'era:exact',
      'faith:exact',
    ]);
    expect(rules.filters[0]?.values).toEqual(taxonomy.categories);
    expect(
      ['x'.repeat(99), 'x'.repeat(100), 'x'.repeat(200), 'x'.repeat(201)].map((text) => lengthOfText(text)),
    ).toEqual(['Short', 'Medium', 'Medium', 'Long']);
    expect(lengthOfText('😀'.repeat(99))).toBe('Short');
  });

  it('read the status each problem kind is answered with from the documented responses', () => {
    expect(
      ['revoked-api-key', 'expired-api-key', 'invalid-api-key', 'allowance-exhausted'].map((kind) =>
        rules.problemStatuses.get(kind),
      ),
    ).toEqual([403, 403, 401, 429]);
    const kinds = taxonomy.problemTypes.map((type) => type.replace('urn:quotes:problem:', ''));
    for (const kind of rules.problemStatuses.keys()) expect(kinds).toContain(kind);
    // One kind answered with two statuses in two documented responses is refused, naming both.
    const contradicted = cloneContract();
    const responses = contradicted.components.responses as Record<string, { content: Record<string, Json> }>;
    const unauthorized = responses.Unauthorized!.content['application/problem+json']!;
    (unauthorized.examples as Record<string, { value: Json }>).revokedToo = {
      value: { type: 'urn:quotes:problem:revoked-api-key', title: 'API key revoked', status: 401, detail: 'x' },
    };
    expect(() => readContractRules(contradicted)).toThrow(/revoked-api-key status (401|403), elsewhere (403|401)/);
  });

  it('follow a changed copy of the contract, and the reference page with them', () => {
    const copy = cloneContract();
    (plansOf(copy)[0] as Record<string, unknown>).monthly_calls = 1234;
    const changed = readContractRules(copy);
    expect(changed.planById.get('trial')?.monthlyCalls).toBe(1234);
    const page = String((describedContract(copy).info as { description?: string }).description);
    expect(page).toContain('| trial | 1,234 calls over its 30 days | 10 | 30 days from issue |');
    expect(page).not.toContain('| trial | 1,000 calls');
  });

  it('refuse a malformed rule with the path of what is wrong', () => {
    const copy = cloneContract();
    (plansOf(copy)[1] as Record<string, unknown>).filters_per_call = 'two';
    expect(() => readContractRules(copy)).toThrow(/info\.x-plans\[1\]\.filters_per_call must be a whole number/);
    const period = cloneContract();
    (plansOf(period)[1] as Record<string, unknown>).allowance_period = 'week';
    expect(() => readContractRules(period)).toThrow(
      /info\.x-plans\[1\]\.allowance_period must be one of month, validity/,
    );
    const price = cloneContract();
    (plansOf(price)[1] as Record<string, unknown>).price = { amount: 49, currency: 'dollars', per: 'month' };
    expect(() => readContractRules(price)).toThrow(/info\.x-plans\[1\]\.price\.currency must be an ISO 4217 code/);
    const unsaid = cloneContract();
    const usageGet = unsaid.paths['/v1/quotes-usage']?.get as unknown as Record<string, unknown>;
    delete usageGet['x-counted-statuses'];
    expect(() => readContractRules(unsaid)).toThrow(/quotes-usage\.get\.x-counted-statuses must list/);
  });
});
