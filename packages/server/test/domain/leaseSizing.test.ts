import { describe, expect, it } from 'vitest';
import { type LeaseDemand, leaseChange } from '../../src/domain/leaseSizing.js';

const lease = (given: Partial<LeaseDemand>): LeaseDemand => ({
  free: 0,
  askedSinceFlush: 0,
  waiting: 0,
  demand: 0,
  timed: true,
  closing: false,
  ...given,
});

describe('lease sizing', () => {
  it('sizes a lease to two intervals of the demand at a timed flush', () => {
    expect(leaseChange(lease({ free: 5, askedSinceFlush: 40 }))).toEqual({ giveBack: 0, ask: 75 });
    expect(leaseChange(lease({ free: 100, askedSinceFlush: 40 }))).toEqual({ giveBack: 20, ask: 0 });
    expect(leaseChange(lease({ free: 80, askedSinceFlush: 40 }))).toEqual({ giveBack: 0, ask: 0 });
  });

  it('gives an idle lease back whole, and every free place at shutdown', () => {
    expect(leaseChange(lease({ free: 30 }))).toEqual({ giveBack: 30, ask: 0 });
    expect(leaseChange(lease({ free: 30, askedSinceFlush: 100, waiting: 3, closing: true }))).toEqual({
      giveBack: 30,
      ask: 0,
    });
  });

  it('asks, between flushes, for the waiting calls and one interval more, and only renews the other leases', () => {
    expect(leaseChange(lease({ timed: false, waiting: 3, demand: 50, free: 0 }))).toEqual({ giveBack: 0, ask: 53 });
    expect(leaseChange(lease({ timed: false, demand: 50, free: 7 }))).toEqual({ giveBack: 0, ask: 0 });
  });
});
