import { describe, expect, it } from 'vitest';
import { decisionCategoryWords, isDecisionCategory } from '../../src/domain/decisionCategories.js';
import { expiryNoticeDue, noticeRetryDelayMs, thresholdReached } from '../../src/domain/holderNoticeRules.js';

describe('when a key holder is mailed', () => {
  it('reaches 80% and 100% by whole percent, rounded down; an allowance of 0 is used up', () => {
    expect([7, 8, 9, 10, 11].map((calls) => thresholdReached(calls, 10))).toEqual([undefined, 80, 80, 100, 100]);
    expect(thresholdReached(7_999, 10_000)).toBeUndefined();
    expect(thresholdReached(0, 0)).toBe(100);
  });

  it('notices an expiry within 7 days and not yet passed', () => {
    const now = new Date('2026-11-20T00:00:00Z');
    const at = (days: number) => new Date(now.getTime() + days * 86_400_000);
    expect([8, 7, 1, 0, -1].map((days) => expiryNoticeDue(at(days), now))).toEqual([false, true, true, false, false]);
    expect(expiryNoticeDue(null, now)).toBe(false);
  });

  it("says a decision in its category's words, and an unknown one as other", () => {
    expect(decisionCategoryWords('terms-rotating-trials')).toBe('terms: rotating trial accounts');
    expect(decisionCategoryWords('requested-by-holder')).toBe('requested by you');
    expect(decisionCategoryWords('revoked-by-operator')).toBe('other');
    expect(decisionCategoryWords(null)).toBe('other');
    expect(isDecisionCategory('internal: fraud ticket 4411')).toBe(false);
  });

  it('waits 1, 2, 4, 8, 16 minutes between attempts', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => noticeRetryDelayMs(attempt) / 60_000)).toEqual([1, 2, 4, 8, 16]);
  });
});
