import { describe, expect, it } from 'vitest';
import { applyPageLimits, defaultLimit, defaultOffset, pageWindow } from '../../src/domain/pagination.js';

describe('page limits', () => {
  it("default to the contract's defaults", () => {
    expect([defaultLimit, defaultOffset]).toEqual([10, 0]);
    expect(applyPageLimits({}, 100)).toEqual({ limit: 10, offset: 0 });
  });

  it("clamp to the key's largest page", () => {
    expect(applyPageLimits({ limit: 1000, offset: 5 }, 25)).toEqual({ limit: 25, offset: 5 });
    expect(applyPageLimits({ limit: 7 }, 25).limit).toBe(7);
  });
});

describe('page window', () => {
  it('says has_more exactly when offset + page length < total', () => {
    expect(pageWindow(25, { limit: 10, offset: 0 })).toEqual({ start: 0, end: 10, hasMore: true });
    expect(pageWindow(25, { limit: 10, offset: 15 })).toEqual({ start: 15, end: 25, hasMore: false });
    expect(pageWindow(20, { limit: 10, offset: 10 })).toEqual({ start: 10, end: 20, hasMore: false });
  });

  it('is empty past the end', () => {
    expect(pageWindow(5, { limit: 10, offset: 50 })).toEqual({ start: 5, end: 5, hasMore: false });
    expect(pageWindow(0, { limit: 10, offset: 0 })).toEqual({ start: 0, end: 0, hasMore: false });
  });
});
