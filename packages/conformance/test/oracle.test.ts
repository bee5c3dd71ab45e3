import { cloneContract, problemTypePrefix, readContractRules, taxonomy } from '@quotes/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contractOperations, countedStatuses, operationById } from '../src/contract/operations.js';
import { planRules } from '../src/contract/plans.js';
import { requestArb } from '../src/properties/arbitraries.js';
import {
  allowanceMonth,
  checkAllowanceHeaders,
  checkPage,
  checkQuote,
  checkUsage,
  validityWindowOf,
} from '../src/properties/invariants.js';
import { expectOutcome, type KeyState } from '../src/properties/oracle.js';
import type { GeneratedRequest, WireParameter } from '../src/properties/requestModel.js';

const rules = planRules();
const keyOf = (plan: string, used = 0): KeyState => {
  const rule = rules.get(plan)!;
  return {
    plan,
    monthlyCalls: rule.monthlyCalls,
    maxLimit: rule.maxLimit,
    filtersPerCall: rule.filtersPerCall,
    faithFilter: rule.faithFilter,
    used,
  };
};
const parameter = (name: string, value: string | null): WireParameter => ({
  name,
  value,
  wire: value === null ? name : `${name}=${encodeURIComponent(value)}`,
});
const request = (
  operationId: GeneratedRequest['operationId'],
  parameters: WireParameter[],
  plan = 'platform',
): GeneratedRequest => ({
  operationId,
  credential: { kind: 'active', plan, transport: 'header' },
  parameters,
});
const random = operationById('getRandomQuote');
const list = operationById('listQuotes');

describe('reading the rules out of the contract', () => {
  it('has a row for every plan, with the per-key plan marked', () => {
    expect([...rules.keys()].sort()).toEqual([...taxonomy.plans].sort());
    expect(rules.get('trial')).toMatchObject({ filtersPerCall: 1, faithFilter: false });
    expect(rules.get('platform')).toMatchObject({ monthlyCalls: null, perKey: false });
    expect(rules.get('enterprise')?.perKey).toBe(true);
  });

  it('knows which calls count from the operations’ descriptions', () => {
    expect(countedStatuses(random)).toEqual([200, 404]);
    expect(countedStatuses(operationById('getUsage'))).toEqual([]);
  });
});

describe('the oracle follows the contract’s order of checks', () => {
  it('key problems first, whatever the parameters', () => {
    const bad = [parameter('era', 'Jurassic')];
    const kinds = {
      missing: 'missing-api-key',
      unknown: 'invalid-api-key',
      conflicting: 'conflicting-api-keys',
      revoked: 'revoked-api-key',
      expired: 'expired-api-key',
    } as const;
    for (const [kind, type] of Object.entries(kinds)) {
      const outcome = expectOutcome(
        { operationId: 'getRandomQuote', credential: { kind: kind as never, transport: 'header' }, parameters: bad },
        random,
        undefined,
      );
      expect(Object.values(outcome.problemTypes)).toEqual([`${problemTypePrefix}${type}`]);
    }
  });

  it('then every bad parameter: unknown, repeated, empty, no match, out of range', () => {
    const outcome = expectOutcome(
      request('listQuotes', [
        parameter('Category', 'grief'),
        parameter('mood', 'dark'),
        parameter('mood', 'dark'),
        parameter('era', ''),
        parameter('length', 'shor'),
        parameter('limit', '1001'),
        parameter('offset', '2.5'),
        parameter('category', 'zzz'),
      ]),
      list,
      keyOf('trial'),
    );
    expect(outcome.statuses).toEqual([400]);
    expect([...outcome.badParameters].sort()).toEqual([
      'Category',
      'category',
      'era',
      'length',
      'limit',
      'mood',
      'offset',
    ]);
  });

  it('then the plan: filters per call and faith', () => {
    expect(
      expectOutcome(
        request('getRandomQuote', [parameter('category', 'grief'), parameter('mood', 'dark')], 'trial'),
        random,
        keyOf('trial'),
      ).statuses,
    ).toEqual([403]);
    expect(
      expectOutcome(request('getRandomQuote', [parameter('faith', 'buddhist')], 'starter'), random, keyOf('starter'))
        .statuses,
    ).toEqual([403]);
    // limit and offset are not filters.
    expect(
      expectOutcome(
        request(
          'listQuotes',
          [parameter('category', 'grief'), parameter('limit', '5'), parameter('offset', '0')],
          'trial',
        ),
        list,
        keyOf('trial'),
      ).statuses,
    ).toEqual([200]);
  });

  it('then the allowance, then the operation', () => {
    expect(expectOutcome(request('getRandomQuote', [], 'trial'), random, keyOf('trial', 1000)).statuses).toEqual([429]);
    expect(
      expectOutcome(request('getUsage', [], 'trial'), operationById('getUsage'), keyOf('trial', 1000)).statuses,
    ).toEqual([200]);
    expect(expectOutcome(request('getRandomQuote', [], 'trial'), random, keyOf('trial', 999)).statuses).toEqual([
      200, 404,
    ]);
  });

  it('matches case-insensitively, by substring for category and mood, with + for spaces', () => {
    const outcome = expectOutcome(
      request('listQuotes', [parameter('category', 'PARENT'), parameter('era', 'early modern')]),
      list,
      keyOf('platform'),
    );
    expect([...(outcome.filters.category ?? [])].sort()).toEqual(['Family & Parenting', 'Parenting & Children']);
    expect(outcome.filters.era).toEqual(new Set(['Early Modern']));
    expect(outcome.page).toEqual({ limit: 10, offset: 0 });
    expect(
      expectOutcome(request('listQuotes', [parameter('limit', '1000')], 'trial'), list, keyOf('trial')).page?.limit,
    ).toBe(10);
  });

  it('matches each filter as its x-filter says, not as the oracle assumes', () => {
    const contract = cloneContract();
    const components = contract.components as unknown as { parameters: Record<string, Record<string, unknown>> };
    const era = Object.values(components.parameters).find((parameter) => parameter.name === 'era')!;
    era['x-filter'] = { ...(era['x-filter'] as object), match: 'substring' };
    const modern = request('listQuotes', [parameter('era', 'modern')]);
    expect(expectOutcome(modern, list, keyOf('platform')).filters.era).toEqual(new Set(['Modern']));
    expect(expectOutcome(modern, list, keyOf('platform'), readContractRules(contract).filters).filters.era).toEqual(
      new Set(['Early Modern', 'Modern']),
    );
  });

  it('gives a definite answer for every generated request', async () => {
    await fc.assert(
      fc.property(
        requestArb(contractOperations(), { plans: [...taxonomy.plans], kinds: ['missing', 'unknown', 'revoked'] }),
        (generated) => {
          const plan = generated.credential.plan ?? 'platform';
          const outcome = expectOutcome(
            generated,
            operationById(generated.operationId),
            keyOf(plan === 'enterprise' ? 'platform' : plan),
          );
          expect(outcome.statuses.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('the semantic invariants catch what a schema cannot', () => {
  const quote = {
    id: 'q_1',
    text: 'Short and sweet.',
    author: 'A',
    category: 'Grief & Loss',
    mood: 'dark,poignant',
    era: 'Modern',
    length: 'Short',
  };

  it('length against the text, moods known, filters satisfied', () => {
    expect(checkQuote(quote, { category: new Set(['Grief & Loss']), mood: new Set(['dark']) }, 'q')).toEqual([]);
    expect(checkQuote({ ...quote, length: 'Long' }, {}, 'q')).toEqual([
      expect.stringContaining('text has 16 characters'),
    ]);
    expect(checkQuote({ ...quote, text: '😀'.repeat(99) }, {}, 'q')).toEqual([]);
    expect(checkQuote({ ...quote, mood: 'dark,dark' }, {}, 'q')).toEqual([expect.stringContaining('repeats')]);
    expect(checkQuote(quote, { category: new Set(['Hope & Optimism']) }, 'q')).toHaveLength(1);
    expect(checkQuote(quote, { era: new Set(['Ancient']) }, 'q')).toHaveLength(1);
  });

  it('pages consistent with total and has_more', () => {
    const page = { quotes: [quote, { ...quote, id: 'q_2' }], total: 5, limit: 2, offset: 2, has_more: true };
    expect(checkPage(page, { limit: 2, offset: 2 }, {})).toEqual([]);
    expect(checkPage({ ...page, has_more: false }, { limit: 2, offset: 2 }, {})).toHaveLength(1);
    expect(checkPage({ ...page, quotes: [quote, quote] }, { limit: 2, offset: 2 }, {})).toEqual([
      expect.stringContaining('twice'),
    ]);
    expect(checkPage({ ...page, total: 3 }, { limit: 2, offset: 2 }, {})).not.toEqual([]);
    expect(
      checkPage({ quotes: [], total: 5, limit: 2, offset: 9, has_more: false }, { limit: 2, offset: 9 }, {}),
    ).toEqual([]);
  });

  it('allowance headers and usage agree with the count', () => {
    const now = new Date(Date.UTC(2026, 10, 23, 12, 0, 0));
    const reset = String(Date.UTC(2026, 11, 1) / 1000);
    const untilReset = (Date.UTC(2026, 11, 1) - now.getTime()) / 1000;
    const headers = {
      'ratelimit-policy': `"monthly";q=1000;w=${30 * 86400}`,
      ratelimit: `"monthly";r=990;t=${untilReset}`,
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '990',
      'x-ratelimit-reset': reset,
    };
    expect(checkAllowanceHeaders(headers, 1000, 10, now, 200)).toEqual([]);
    expect(checkAllowanceHeaders(headers, 1000, 11, now, 200)).toHaveLength(2);
    expect(checkAllowanceHeaders(headers, null, 10, now, 200)).toEqual([expect.stringContaining('unlimited key got')]);
    expect(checkAllowanceHeaders({ 'x-ratelimit-reset': reset }, null, 10, now, 200)).toEqual([]);
    expect(checkAllowanceHeaders(headers, 1000, 10, now, 429)).toEqual([expect.stringContaining('Retry-After')]);
    const usage = {
      tier: 'starter',
      calls_this_month: 10,
      calls_in_period: 10,
      call_limit: 1000,
      calls_remaining: 990,
      usage_pct: 1,
      period_start: '2026-11-01T00:00:00Z',
      resets_at: '2026-12-01T00:00:00Z',
    };
    expect(checkUsage(usage, { plan: 'starter', limit: 1000, used: 10 }, allowanceMonth(now), now)).toEqual([]);
    expect(checkUsage(usage, { plan: 'starter', limit: 1000, used: 11 }, allowanceMonth(now), now)).toHaveLength(3);
  });

  it("a trial key's headers and usage run over its validity, across the 1st", () => {
    const now = new Date(Date.UTC(2026, 11, 2, 0, 0, 0));
    const trial = {
      tier: 'trial',
      calls_this_month: 400,
      calls_in_period: 1000,
      call_limit: 1000,
      calls_remaining: 0,
      usage_pct: 100,
      period_start: '2026-11-29T12:00:00Z',
      resets_at: '2026-12-29T12:00:00Z',
    };
    const window = validityWindowOf(trial, { plan: 'trial', validityDays: 30 });
    if (typeof window === 'string') throw new Error(window);
    expect(checkUsage(trial, { plan: 'trial', limit: 1000, used: 1000 }, window, now)).toEqual([]);
    expect(
      checkUsage({ ...trial, calls_this_month: 1001 }, { plan: 'trial', limit: 1000, used: 1000 }, window, now),
    ).toHaveLength(1);
    expect(
      validityWindowOf({ ...trial, resets_at: '2027-01-01T00:00:00Z' }, { plan: 'trial', validityDays: 30 }),
    ).toMatch(/not its 30 days/);
    const untilEnd = (Date.UTC(2026, 11, 29, 12) - now.getTime()) / 1000;
    const headers = {
      'ratelimit-policy': `"validity";q=1000;w=${30 * 86400}`,
      ratelimit: `"validity";r=0;t=${untilEnd}`,
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Date.UTC(2026, 11, 29, 12) / 1000),
      'retry-after': String(untilEnd),
    };
    expect(checkAllowanceHeaders(headers, 1000, 1000, now, 429, window)).toEqual([]);
    // A Retry-After to the 1st, as a monthly trial would give, is caught.
    const toFirst = { ...headers, 'retry-after': String((Date.UTC(2027, 0, 1) - now.getTime()) / 1000) };
    expect(checkAllowanceHeaders(toFirst, 1000, 1000, now, 429, window)).toEqual([
      expect.stringContaining('Retry-After'),
    ]);
  });
});
