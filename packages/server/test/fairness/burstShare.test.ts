import { describe, expect, it } from 'vitest';
import { burstShare } from '../../src/fairness/burstShare.js';

const unknown = Number.POSITIVE_INFINITY;

describe('burstShare', () => {
  it('gives the whole rate to the only server a key reaches, however many are live', () => {
    expect(burstShare(25, [], false, 3)).toBe(25);
  });

  it('splits the rate equally among servers each offered more than an equal split', () => {
    expect(burstShare(25, [33, 33], false, 3)).toBeCloseTo(25 / 3);
    expect(burstShare(25, [unknown], false, 3)).toBe(12.5);
  });

  it('leaves a peer what it is offered below an equal split, and takes the rest', () => {
    expect(burstShare(25, [4], false, 2)).toBe(21);
    expect(burstShare(25, [2, 30], false, 3)).toBe(11.5);
    expect(burstShare(25, [0], false, 2)).toBe(25);
  });

  it('gives servers that agree on each other’s demand shares summing to at most the rate', () => {
    const offered = [20, 4, 9, 40];
    const served = offered.map((own, i) =>
      Math.min(
        own,
        burstShare(
          25,
          offered.filter((_, j) => j !== i),
          false,
          4,
        ),
      ),
    );
    expect(served.reduce((sum, calls) => sum + calls, 0)).toBeLessThanOrEqual(25 + 1e-9);
    expect(served[1]).toBe(4);
  });

  it('while a key settles, takes no more than an equal split among the live servers', () => {
    expect(burstShare(25, [], true, 3)).toBeCloseTo(25 / 3);
    expect(burstShare(25, [], true, 1)).toBe(25);
    expect(burstShare(24, [unknown, unknown, unknown], true, 2)).toBe(6);
    expect(burstShare(10, [], true, 0)).toBe(10);
  });
});
