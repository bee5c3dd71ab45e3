import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../src/fairness/tokenBucket.js';

describe('token bucket', () => {
  it('lets a full burst through, then refuses with the whole seconds until a token is back', () => {
    const bucket = new TokenBucket(5, 5, 0);
    for (let call = 0; call < 5; call++) expect(bucket.take(0)).toBe(0);
    expect(bucket.take(0)).toBe(1);
    expect(bucket.take(100)).toBe(1);
    // 200 ms refill one token at 5 a second.
    expect(bucket.take(200)).toBe(0);
    expect(bucket.take(200)).toBe(1);
  });

  it('never holds more than its capacity, however long it waited', () => {
    const bucket = new TokenBucket(2, 2, 0);
    expect(bucket.fullAt(0)).toBe(true);
    bucket.take(0);
    expect(bucket.fullAt(100)).toBe(false);
    expect(bucket.fullAt(60_000)).toBe(true);
    expect([bucket.take(60_000), bucket.take(60_000), bucket.take(60_000)]).toEqual([0, 0, 1]);
  });

  it('asks for more than one second when the rate is below one a second', () => {
    const bucket = new TokenBucket(0.25, 1, 0);
    expect(bucket.take(0)).toBe(0);
    expect(bucket.take(0)).toBe(4);
  });

  it('changes rate without refilling: a smaller share keeps at most its capacity, a larger one starts from what is left', () => {
    const bucket = new TokenBucket(30, 30, 0);
    bucket.retune(10, 10, 0);
    expect(Array.from({ length: 11 }, () => bucket.take(0))).toEqual([...Array(10).fill(0), 1]);
    bucket.retune(30, 30, 0);
    // Empty still; refilled at the new rate from here.
    expect(bucket.take(0)).toBe(1);
    expect(bucket.take(100)).toBe(0);
  });
});
