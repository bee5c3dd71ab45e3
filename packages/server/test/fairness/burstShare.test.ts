import { describe, expect, it } from 'vitest';
import { burstShare } from '../../src/fairness/burstShare.js';

describe('burstShare', () => {
  it('gives the whole rate to the only server a key reaches, however many are live', () => {
    expect(burstShare(25, 0, false, 3)).toBe(25);
  });

  it('divides the rate among the servers the key reaches', () => {
    expect(burstShare(25, 2, false, 3)).toBeCloseTo(25 / 3);
    expect(burstShare(25, 1, false, 3)).toBe(12.5);
  });

  it('while a key settles, divides among every live server, so a key starting everywhere at once gets its rate in all', () => {
    expect(burstShare(25, 0, true, 3)).toBeCloseTo(25 / 3);
    expect(burstShare(25, 0, true, 1)).toBe(25);
    // Never more than the settled share: peers seen beyond the live count (a view not yet lapsed).
    expect(burstShare(24, 3, true, 2)).toBe(6);
  });

  it('ignores a negative count and a zero live count', () => {
    expect(burstShare(10, -1, true, 0)).toBe(10);
  });
});
