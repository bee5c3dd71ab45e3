import { describe, expect, it } from 'vitest';
import { effectiveLimits, type PlanRules, planViolation } from '../../src/domain/plans.js';

const plan = (id: string, overrides: Partial<PlanRules> = {}): PlanRules => ({
  id,
  monthlyCalls: 1000,
  filtersPerCall: 1,
  maxLimit: 10,
  faithFilter: false,
  perKeyLimits: false,
  validityDays: null,
  requestsPerSecond: null,
  allowancePeriod: 'month',
  price: null,
  ...overrides,
});

describe('plan rules (step 4)', () => {
  it('allows up to the plan number of filters and names them beyond it', () => {
    const trial = plan('trial');
    expect(planViolation(trial, ['category'])).toBeUndefined();
    expect(planViolation(trial, ['category', 'mood'])).toBe(
      'The trial plan allows 1 filter per call; this call used 2 (category, mood).',
    );
    const starter = plan('starter', { filtersPerCall: 2 });
    expect(planViolation(starter, ['category', 'mood'])).toBeUndefined();
    expect(planViolation(starter, ['category', 'mood', 'era'])).toContain(
      'allows 2 filters per call; this call used 3',
    );
  });

  it('refuses the faith filter on plans without it, even within the filter count', () => {
    expect(planViolation(plan('trial'), ['faith'])).toContain('does not include the faith filter');
    expect(
      planViolation(plan('professional', { faithFilter: true, filtersPerCall: 5 }), ['faith', 'era']),
    ).toBeUndefined();
  });
});

describe('effective limits', () => {
  it("are the plan's unless the plan takes per-key limits", () => {
    expect(effectiveLimits(plan('starter'), { monthlyCalls: 5, maxLimit: 500 })).toEqual({
      monthlyCalls: 1000,
      maxLimit: 10,
    });
  });

  it("are the key's own on enterprise, falling back to the plan's", () => {
    const enterprise = plan('enterprise', { monthlyCalls: null, maxLimit: 100, perKeyLimits: true });
    expect(effectiveLimits(enterprise, { monthlyCalls: 250_000, maxLimit: 500 })).toEqual({
      monthlyCalls: 250_000,
      maxLimit: 500,
    });
    expect(effectiveLimits(enterprise, { monthlyCalls: null, maxLimit: null })).toEqual({
      monthlyCalls: null,
      maxLimit: 100,
    });
  });
});
