/** Words per block of the rank directory: a select scans at most this many words after a binary search. */
const blockWords = 16;

/** Entries of a RankSet's block directory over `wordCount` words. */
export function directoryLength(wordCount: number): number {
  return Math.ceil(wordCount / blockWords) + 1;
}

export function popcount32(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Position (0-31) of the n-th (0-based) set bit of a word that has more than n set bits. */
function selectInWord(word: number, n: number): number {
  let rest = word;
  for (let skipped = 0; skipped < n; skipped++) rest &= rest - 1;
  return 31 - Math.clz32(rest & -rest);
}

/**
 * A set of quote ranks as a plain bitset (bit r of word r >>> 5), frozen once built, with a
 * directory of how many members precede each block of 16 words: the k-th member (a uniform
 * random pick, or where a page at offset k starts) is a binary search over the directory plus a
 * scan of at most 16 words.
 */
export class RankSet {
  readonly size: number;
  private readonly before: Uint32Array;

  /**
   * Takes ownership of `words`: the caller must not change them afterwards. `directory`, when
   * given, is reused for the block counts (it must hold directoryLength(words.length) entries).
   */
  constructor(
    readonly words: Uint32Array,
    directory?: Uint32Array,
  ) {
    const blocks = Math.ceil(words.length / blockWords);
    this.before = directory ? directory.subarray(0, blocks + 1) : new Uint32Array(blocks + 1);
    let count = 0;
    for (let block = 0; block < blocks; block++) {
      this.before[block] = count;
      const end = Math.min(words.length, (block + 1) * blockWords);
      for (let index = block * blockWords; index < end; index++) count += popcount32(words[index] as number);
    }
    this.before[blocks] = count;
    this.size = count;
  }

  get byteLength(): number {
    return this.words.byteLength + this.before.byteLength;
  }

  has(rank: number): boolean {
    return ((this.words[rank >>> 5] ?? 0) & (1 << (rank & 31))) !== 0;
  }

  /** The member of 0-based position k in ascending order; undefined when k is out of range. */
  select(k: number): number | undefined {
    if (!Number.isInteger(k) || k < 0 || k >= this.size) return undefined;
    const [index, n] = this.wordOf(k);
    return index * 32 + selectInWord(this.words[index] as number, n);
  }

  /** Up to `limit` members in ascending order, starting with the member at position `offset`. */
  slice(offset: number, limit: number): number[] {
    const ranks: number[] = [];
    if (limit <= 0 || offset < 0 || offset >= this.size) return ranks;
    let [index, n] = this.wordOf(offset);
    // The first word: drop the n members before the offset.
    let word = this.words[index] as number;
    for (let skipped = 0; skipped < n; skipped++) word &= word - 1;
    for (;;) {
      while (word !== 0) {
        const lowest = word & -word;
        ranks.push(index * 32 + 31 - Math.clz32(lowest));
        if (ranks.length === limit) return ranks;
        word ^= lowest;
      }
      index++;
      if (index >= this.words.length) return ranks;
      word = this.words[index] as number;
      n = 0;
    }
  }

  /** The word holding the member at position k, and how many members of that word precede it. */
  private wordOf(k: number): [number, number] {
    let low = 0;
    let high = this.before.length - 2;
    // The last block whose count of preceding members is at most k.
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((this.before[middle] as number) <= k) low = middle;
      else high = middle - 1;
    }
    let remaining = k - (this.before[low] as number);
    for (let index = low * blockWords; ; index++) {
      const count = popcount32(this.words[index] as number);
      if (remaining < count) return [index, remaining];
      remaining -= count;
    }
  }
}
