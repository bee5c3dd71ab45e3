import { describe, expect, it } from 'vitest';
import { mixedTraffic, neverSeenCombinations } from '../src/mixedTraffic.js';

describe('the mixed traffic', () => {
  const traffic = mixedTraffic(7, 2000, 20000);

  it('is the same for the same seed', () => {
    expect(mixedTraffic(7, 2000, 20000).sequence.slice(0, 50)).toEqual(traffic.sequence.slice(0, 50));
    expect(mixedTraffic(8, 2000, 20000).sequence.slice(0, 50)).not.toEqual(traffic.sequence.slice(0, 50));
  });

  it('spreads over many filter combinations, page sizes and offsets', () => {
    expect(traffic.distinct).toHaveLength(2000);
    const lists = traffic.distinct.filter((url) => url.startsWith('/v1/quotes-filter?'));
    const randoms = traffic.distinct.filter((url) => url.startsWith('/v1/quotes-random'));
    expect(lists.length).toBeGreaterThan(500);
    expect(randoms.length).toBeGreaterThan(500);
    expect(new Set(lists.map((url) => /limit=(\d+)/.exec(url)?.[1])).size).toBe(5);
    expect(new Set(lists.map((url) => /offset=(\d+)/.exec(url)?.[1])).size).toBeGreaterThan(30);
    for (const url of traffic.distinct) expect(url).not.toMatch(/[ &]{2}|[^\x21-\x7e]/);
  });

  it('has a long tail: a few URLs are asked often, most once or never', () => {
    const counts = new Map<string, number>();
    for (const url of traffic.sequence) counts.set(url, (counts.get(url) ?? 0) + 1);
    const sorted = [...counts.values()].sort((a, b) => b - a);
    expect(sorted[0]).toBeGreaterThan(500);
    expect([...counts.values()].filter((count) => count <= 2).length).toBeGreaterThan(counts.size / 3);
  });
});

describe('never-seen combinations', () => {
  it('are distinct and each carry category, mood and era', () => {
    const urls = neverSeenCombinations(3, 300);
    expect(new Set(urls).size).toBe(300);
    for (const url of urls) expect(url).toMatch(/category=.+&mood=.+&era=/);
  });
});
