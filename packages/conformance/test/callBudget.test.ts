import { describe, expect, it } from 'vitest';
import { planRules } from '../src/contract/plans.js';
import { fitRuns, layer3CountedKeys } from '../src/properties/callBudget.js';
import { underTest } from '../src/target/keys.js';

const name = (key: string) => key;

describe('fitting a run to --max-calls-per-key', () => {
  it('keeps the longest prefix of generated requests within the budget, beside the fixed calls', () => {
    const perRun = ['trial', undefined, 'starter', 'trial', undefined, 'trial', 'starter'];
    const fitted = fitRuns({ budget: 3, fixed: new Map([['trial', 1]]), perRun, requested: 7, name });
    expect(fitted.runs).toBe(5);
    expect(fitted.estimate).toEqual(
      new Map([
        ['trial', 3],
        ['starter', 1],
      ]),
    );
  });

  it('refuses a budget the fixed calls pass, or one that leaves no generated request', () => {
    expect(() => fitRuns({ budget: 3, fixed: new Map([['trial', 4]]), perRun: [], requested: 0, name })).toThrow(
      /--max-calls-per-key 3 is too small: .* count 4 calls on the trial key/,
    );
    expect(() => fitRuns({ budget: 3, fixed: new Map([['trial', 3]]), perRun: ['trial'], requested: 1, name })).toThrow(
      /leaves no room for generated requests/,
    );
  });

  it('predicts counted calls only for requests the contract answers with a counted status', () => {
    const rules = planRules();
    const trial = underTest('the trial key', rules.get('trial')!);
    const counted = layer3CountedKeys({ active: [trial] }, 7, 1000);
    const share = counted.filter((key) => key === 'the trial key').length / counted.length;
    // 80% of requests carry the active key; the 400s, 403s and free quotes-usage calls do not count.
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.6);
    expect(layer3CountedKeys({ active: [trial] }, 7, 1000)).toEqual(counted);
  });
});
