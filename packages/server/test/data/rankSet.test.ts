import { describe, expect, it } from 'vitest';
import { popcount32, RankSet } from '../../src/data/rankSet.js';

/** A deterministic generator (mulberry32), so a failure replays. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function setOf(members: readonly number[], bound: number): RankSet {
  const words = new Uint32Array(Math.ceil(bound / 32));
  for (const rank of members) words[rank >>> 5] = (words[rank >>> 5] as number) | (1 << (rank & 31));
  return new RankSet(words);
}

describe('popcount32', () => {
  it('counts the set bits of any 32-bit word, the sign bit included', () => {
    expect(popcount32(0)).toBe(0);
    expect(popcount32(0xffffffff)).toBe(32);
    expect(popcount32(0x80000000)).toBe(1);
    expect(popcount32(0x80000001)).toBe(2);
    expect(popcount32(0x55555555)).toBe(16);
  });
});

describe('a set of ranks', () => {
  it('is empty without members: no size, no k-th member, no page', () => {
    for (const set of [new RankSet(new Uint32Array(0)), new RankSet(new Uint32Array(100))]) {
      expect(set.size).toBe(0);
      expect(set.select(0)).toBeUndefined();
      expect(set.slice(0, 10)).toEqual([]);
    }
  });

  it('selects the k-th member and pages from any offset, at every density and across block boundaries', () => {
    const random = generator(17);
    // 16 words make a block: 512 ranks. Bounds that end mid-word, mid-block and on a block edge.
    for (const bound of [1, 31, 32, 33, 511, 512, 513, 5_000, 40_000]) {
      for (const density of [0.001, 0.05, 0.5, 0.97, 1]) {
        const members: number[] = [];
        for (let rank = 0; rank < bound; rank++) if (random() < density) members.push(rank);
        const set = setOf(members, bound);
        expect(set.size).toBe(members.length);
        for (let k = 0; k < members.length; k += Math.max(1, Math.floor(members.length / 97)))
          expect(set.select(k)).toBe(members[k]);
        expect(set.select(members.length)).toBeUndefined();
        expect(set.select(-1)).toBeUndefined();
        for (const offset of [0, 1, 15, 16, 17, 511, 512, 513, members.length - 3, members.length - 1]) {
          for (const limit of [1, 7, 50, 1000]) {
            expect(set.slice(offset, limit)).toEqual(offset < 0 ? [] : members.slice(offset, offset + limit));
          }
        }
        expect(set.slice(members.length, 10)).toEqual([]);
      }
    }
  });

  it('handles members only in the highest bit of each word and long empty stretches', () => {
    const members = [31, 63, 20_000 * 32 + 31, 40_000 * 32 - 1];
    const set = setOf(members, 40_000 * 32);
    expect(set.size).toBe(4);
    expect(members.map((_, k) => set.select(k))).toEqual(members);
    expect(set.slice(1, 10)).toEqual(members.slice(1));
    expect(set.has(63)).toBe(true);
    expect(set.has(62)).toBe(false);
  });
});
