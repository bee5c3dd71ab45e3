import { rules } from '@quotes/contract';
import { Problem } from '@quotes/server/data-free-checks';
import { describe, expect, it } from 'vitest';
import { CallLedger } from '../src/callLedger.js';

const plan = (id: string, monthlyCalls?: number) => {
  const rule = rules.planById.get(id)!;
  return monthlyCalls === undefined ? rule : { ...rule, monthlyCalls };
};

function refusal(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("the mock's count of calls", () => {
  it("counts each key's calls against the allowance, refuses the one beyond with the server's 429, and starts again each month", () => {
    let now = new Date('2026-11-30T23:59:58Z');
    const ledger = new CallLedger(plan('starter', 2), () => now);
    expect(ledger.count('a')).toMatchObject({ 'X-RateLimit-Remaining': '1', RateLimit: '"monthly";r=1;t=2' });
    expect(ledger.count('b')['X-RateLimit-Remaining']).toBe('1');
    expect(ledger.count('a')['X-RateLimit-Remaining']).toBe('0');
    const refused = refusal(() => ledger.count('a'));
    expect(refused).toBeInstanceOf(Problem);
    expect(refused).toMatchObject({ status: 429, kind: 'allowance-exhausted', headers: { 'Retry-After': '2' } });
    expect(ledger.usedBy('a')).toBe(2);
    now = new Date('2026-12-01T00:00:00Z');
    expect(ledger.usedBy('a')).toBe(0);
    expect(ledger.count('a')['X-RateLimit-Reset']).toBe(String(Date.UTC(2027, 0, 1) / 1000));
  });

  it('sends only the reset for a plan without a monthly limit, and never refuses', () => {
    const ledger = new CallLedger(plan('platform'), () => new Date('2026-11-15T00:00:00Z'));
    for (let call = 0; call < 5; call += 1) expect(Object.keys(ledger.count('k'))).toEqual(['X-RateLimit-Reset']);
    expect(ledger.exhausted()).toBeUndefined();
  });

  it("on the trial plan counts over the 30 days from the mock's start, across the 1st", () => {
    let now = new Date('2026-11-29T12:00:00Z');
    const ledger = new CallLedger(plan('trial', 2), () => now);
    ledger.count('a');
    now = new Date('2026-12-02T12:00:00Z');
    expect(ledger.count('a')).toMatchObject({
      'X-RateLimit-Remaining': '0',
      'RateLimit-Policy': '"validity";q=2;w=2592000',
    });
    const refused = refusal(() => ledger.count('a'));
    expect(refused).toMatchObject({ status: 429, headers: { 'Retry-After': String(27 * 86400) } });
  });

  it('gives the 429 of the plan and its period for Prefer: code=429', () => {
    const now = new Date('2026-11-26T00:00:00Z');
    const professional = new CallLedger(plan('professional'), () => now).exhausted();
    expect(professional?.message).toBe(
      'All 50000 calls of this month are used; the allowance resets at 2026-12-01T00:00:00Z.',
    );
    expect(professional?.headers['Retry-After']).toBe(String(5 * 86400));
    const trial = new CallLedger(plan('trial'), () => now).exhausted();
    expect(trial?.message).toBe(
      "All 1000 calls of this key's 30 days are used; the key expires at 2026-12-26T00:00:00Z.",
    );
    expect(trial?.headers['Retry-After']).toBe(String(30 * 86400));
  });
});
