import { Problem } from '@quotes/server/data-free-checks';
import { describe, expect, it } from 'vitest';
import { CallLedger } from '../src/callLedger.js';

describe("the mock's count of calls", () => {
  it("counts each key's calls against the allowance, refuses the one beyond with the server's 429, and starts again each month", () => {
    let now = new Date('2026-11-30T23:59:58Z');
    const ledger = new CallLedger(2, () => now);
    expect(ledger.count('a')).toMatchObject({ 'X-RateLimit-Remaining': '1', RateLimit: '"monthly";r=1;t=2' });
    expect(ledger.count('b')['X-RateLimit-Remaining']).toBe('1');
    expect(ledger.count('a')['X-RateLimit-Remaining']).toBe('0');
    let refused: unknown;
    try {
      ledger.count('a');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(Problem);
    expect(refused).toMatchObject({ status: 429, kind: 'allowance-exhausted', headers: { 'Retry-After': '2' } });
    expect(ledger.usedBy('a')).toBe(2);
    now = new Date('2026-12-01T00:00:00Z');
    expect(ledger.usedBy('a')).toBe(0);
    expect(ledger.count('a')['X-RateLimit-Reset']).toBe(String(Date.UTC(2027, 0, 1) / 1000));
  });

  it('sends only the reset for a plan without a monthly limit, and never refuses', () => {
    const ledger = new CallLedger(null, () => new Date('2026-11-15T00:00:00Z'));
    for (let call = 0; call < 5; call += 1) expect(Object.keys(ledger.count('k'))).toEqual(['X-RateLimit-Reset']);
  });
});
