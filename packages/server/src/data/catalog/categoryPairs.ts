import { appendLows, chunkRanks, chunkWords, packedRanksFrom, popcount32, type RankSet } from './rankSet.js';

/** Ranks of one (category, other value) pair in ascending order, packed as a packed set is. */
interface PairList {
  /** Each member's low 16 bits. */
  readonly lows: Uint16Array;
  /** Entry c: how many members precede chunk c of 65,536 ranks; the last entry is the size. */
  readonly starts: Uint32Array;
}

/** A bitset of one taxonomy value, with the key it is filed under. */
export interface ValueBits {
  readonly key: string;
  readonly bits: Uint32Array;
}

/**
 * For each category, its members that also have each other taxonomy value (each mood, length,
 * era and faith), 2 bytes a member: about size x (moods a quote has + 3) x 2 bytes. A combination
 * with one category is then filtered from its smallest pair's few thousand members instead of
 * ANDing whole bitsets (decision 0077).
 */
export class CategoryPairs {
  private readonly lists = new Map<string, PairList>();
  private bytes = 0;
  /** The longest list: what a match's reused buffer must hold. */
  private longest = 0;
  private scratch: { lows: Uint16Array; starts: Uint32Array } | undefined;

  private constructor(private readonly chunks: number) {}

  /**
   * Builds the lists one category a step, so a caller can yield between steps (a reload builds
   * them under traffic): a step reads the category's words once against every other value's.
   */
  static *build(
    wordCount: number,
    categories: readonly ValueBits[],
    others: readonly ValueBits[],
  ): Generator<void, CategoryPairs> {
    const chunks = Math.ceil(wordCount / chunkWords);
    const pairs = new CategoryPairs(chunks);
    if (wordCount === 0) return pairs;
    for (const category of categories) {
      let members = 0;
      for (let index = 0; index < wordCount; index++) members += popcount32(category.bits[index] as number);
      const lows = others.map(() => new Uint16Array(members));
      const starts = others.map(() => new Uint32Array(chunks + 1));
      const at = new Uint32Array(others.length);
      for (let chunk = 0; chunk < chunks; chunk++) {
        for (let other = 0; other < others.length; other++) (starts[other] as Uint32Array)[chunk] = at[other] as number;
        const first = chunk * chunkWords;
        const end = Math.min(wordCount, first + chunkWords);
        for (let index = first; index < end; index++) {
          const word = category.bits[index] as number;
          if (word === 0) continue;
          const base = (index - first) * 32;
          for (let other = 0; other < others.length; other++)
            at[other] = appendLows(
              word & ((others[other] as ValueBits).bits[index] as number),
              base,
              lows[other] as Uint16Array,
              at[other] as number,
            );
        }
      }
      others.forEach((other, position) => {
        const size = at[position] as number;
        const list = { lows: (lows[position] as Uint16Array).slice(0, size), starts: starts[position] as Uint32Array };
        list.starts[chunks] = size;
        pairs.lists.set(pairKey(category.key, other.key), list);
        pairs.bytes += list.lows.byteLength + list.starts.byteLength;
        pairs.longest = Math.max(pairs.longest, size);
      });
      yield;
    }
    return pairs;
  }

  get byteLength(): number {
    return this.bytes;
  }

  /** How many quotes have both values (undefined for a pair not built). */
  sizeOf(category: string, other: string): number | undefined {
    return this.lists.get(pairKey(category, other))?.lows.length;
  }

  /**
   * The members of the pair (category, other) that also match every one of `tests` (each an OR
   * of bitsets), as a packed set: its own, or (`transient`) in a buffer reused by the next
   * match, so valid only until then.
   */
  matching(category: string, other: string, tests: readonly (readonly Uint32Array[])[], transient: boolean): RankSet {
    const list = this.lists.get(pairKey(category, other));
    if (!list) throw new Error(`no pair list for ${category} and ${other}`);
    this.scratch ??= { lows: new Uint16Array(this.longest), starts: new Uint32Array(this.chunks + 1) };
    const { lows, starts } = this.scratch;
    let at = 0;
    for (let chunk = 0; chunk < this.chunks; chunk++) {
      starts[chunk] = at;
      const base = chunk * chunkRanks;
      const end = list.starts[chunk + 1] as number;
      members: for (let position = list.starts[chunk] as number; position < end; position++) {
        const low = list.lows[position] as number;
        const rank = base + low;
        const word = rank >>> 5;
        const bit = 1 << (rank & 31);
        for (const sets of tests) {
          let found = false;
          for (const set of sets)
            if (((set[word] as number) & bit) !== 0) {
              found = true;
              break;
            }
          if (!found) continue members;
        }
        lows[at++] = low;
      }
    }
    starts[this.chunks] = at;
    return transient
      ? packedRanksFrom(lows.subarray(0, at), starts)
      : packedRanksFrom(lows.slice(0, at), starts.slice());
  }
}

function pairKey(category: string, other: string): string {
  return `${category}\u0001${other}`;
}
