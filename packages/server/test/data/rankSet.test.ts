import { seededRandom } from '@quotes/corpus';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { directoryLength, popcount32, type RankSet, rankSetOf } from '../../src/data/catalog/rankSet.js';

function wordsOf(members: readonly number[], bound: number): Uint32Array {
  const words = new Uint32Array(Math.ceil(bound / 32));
  for (const rank of members) words[rank >>> 5] = (words[rank >>> 5] as number) | (1 << (rank & 31));
  return words;
}

function setOf(members: readonly number[], bound: number): RankSet {
  return rankSetOf(wordsOf(members, bound));
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
    for (const set of [rankSetOf(new Uint32Array(0)), rankSetOf(new Uint32Array(100))]) {
      expect(set.size).toBe(0);
      expect(set.select(0)).toBeUndefined();
      expect(set.slice(0, 10)).toEqual([]);
    }
  });

  it('selects the k-th member and pages from any offset, at every density and across block boundaries', () => {
    const random = seededRandom(17);
    // 16 words make a block: 512 ranks. Bounds that end mid-word, mid-block and on a block edge.
    for (const bound of [1, 31, 32, 33, 511, 512, 513, 5_000, 40_000]) {
      // Up to two members per word (density 1/16) a set is packed, above it a bitset.
      for (const density of [0.001, 0.02, 0.03, 0.05, 0.07, 0.5, 0.97, 1]) {
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

  it('is kept packed up to two members per word, as a bitset above, each charged what it owns', () => {
    const words = 1_000;
    const spread = (count: number) => Array.from({ length: count }, (_, k) => Math.floor((k * words * 32) / count));
    const atLimit = setOf(spread(2 * words), words * 32);
    // 2 bytes a member, and where its one chunk of 65,536 ranks starts and ends.
    expect(atLimit.byteLength).toBe(2 * words * 2 + 2 * 4);
    const above = setOf(spread(2 * words + 1), words * 32);
    // The bitset and its directory of 63 blocks plus one entry.
    expect(above.byteLength).toBe(words * 4 + 64 * 4);
    expect(above.slice(2 * words - 2, 5)).toEqual(spread(2 * words + 1).slice(2 * words - 2));
    // A shared bitset is read in place: the set owns only its directory, however few its members.
    const shared = rankSetOf(wordsOf(spread(10), words * 32), { words: 'shared' });
    expect(shared.byteLength).toBe(64 * 4);
    expect(shared.slice(0, 20)).toEqual(spread(10));
  });

  it('copies what a kept set needs out of borrowed words, and builds a transient one in the reused buffers', () => {
    const bound = 64 * 32;
    const directory = new Uint32Array(directoryLength(64));
    const sparse = [3, 700, 1_500];
    const dense = Array.from({ length: 1_000 }, (_, k) => k * 2);
    const borrowed = wordsOf(sparse, bound);
    const keptSparse = rankSetOf(borrowed, { words: 'borrowed' });
    const borrowedDense = wordsOf(dense, bound);
    const keptDense = rankSetOf(borrowedDense, { words: 'borrowed' });
    const reused = wordsOf([5, 6], bound);
    const transient = rankSetOf(reused, { words: 'borrowed', transient: { directory } });
    expect(transient.slice(0, 5)).toEqual([5, 6]);
    expect(transient.byteLength).toBe(bound / 8 + directory.byteLength);
    // The caller reuses its words and the directory for other sets: the kept ones do not change.
    borrowed.fill(0xffffffff);
    borrowedDense.fill(0);
    reused.set(wordsOf([1, 2, 4, 8], bound));
    rankSetOf(reused, { words: 'borrowed', transient: { directory } });
    expect(keptSparse.slice(0, 10)).toEqual(sparse);
    expect(keptDense.size).toBe(dense.length);
    expect(keptDense.slice(990, 20)).toEqual(dense.slice(990));
    expect(keptDense.select(500)).toBe(1_000);
    // The transient set read the reused words in place, which now hold other members.
    expect(transient.slice(0, 5)).not.toEqual([5, 6]);
  });

  it('answers exactly as the sorted list of its members, kept or transient, across chunks of 65,536 ranks', () => {
    const bound = 4 * 65_536 + 100;
    const directory = new Uint32Array(directoryLength(Math.ceil(bound / 32)));
    fc.assert(
      fc.property(
        // Runs of members around the chunk edges and anywhere else, at any density.
        fc.array(
          fc.record({
            from: fc.oneof(fc.integer({ min: 0, max: bound - 1 }), fc.constantFrom(65_535, 65_536, 131_071, 196_608)),
            length: fc.integer({ min: 1, max: 3_000 }),
            every: fc.integer({ min: 1, max: 40 }),
          }),
          { maxLength: 12 },
        ),
        fc.array(fc.integer({ min: -2, max: bound + 2 }), { maxLength: 30 }),
        (runs, probes) => {
          const chosen = new Set<number>();
          for (const run of runs)
            for (let rank = run.from; rank < Math.min(bound, run.from + run.length); rank += run.every)
              chosen.add(rank);
          const members = [...chosen].sort((a, b) => a - b);
          const words = wordsOf(members, bound);
          for (const set of [
            rankSetOf(words.slice()),
            rankSetOf(words, { words: 'borrowed', transient: { directory } }),
          ]) {
            expect(set.size).toBe(members.length);
            for (const k of [...probes, 0, members.length - 1, members.length]) {
              expect(set.select(k)).toBe(members[k]);
              expect(set.slice(k, 70)).toEqual(k < 0 ? [] : members.slice(k, k + 70));
            }
            for (const rank of [...probes, ...members.slice(0, 50)]) expect(set.has(rank)).toBe(chosen.has(rank));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers has() for members and non-members in both forms', () => {
    for (const members of [[0, 63, 64, 2_000], Array.from({ length: 3_000 }, (_, k) => k)]) {
      const set = setOf(members, 4_096);
      for (const rank of [0, 1, 62, 63, 64, 65, 1_999, 2_000, 2_001, 2_999, 3_000, 4_095])
        expect(set.has(rank), String(rank)).toBe(members.includes(rank));
    }
  });
});
