/** Words per block of the rank directory: a select scans at most this many words after a binary search. */
const blockWords = 16;

/** Entries of a bitset's block directory over `wordCount` words. */
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

/** A frozen set of quote ranks: its size, its k-th member in ascending order, and pages of it. */
export interface RankSet {
  readonly size: number;
  /** Bytes this set holds of its own: what a cache of sets is charged for it. */
  readonly byteLength: number;
  has(rank: number): boolean;
  /** The member of 0-based position k in ascending order; undefined when k is out of range. */
  select(k: number): number | undefined;
  /** Up to `limit` members in ascending order, starting with the member at position `offset`. */
  slice(offset: number, limit: number): number[];
}

export interface RankSetOptions {
  /**
   * The set is read at once and never kept: it is built in `directory` (directoryLength(words)
   * entries, reused by the caller) and reads `words` in place, so it allocates nothing and is
   * valid only until the caller next uses either.
   */
  transient?: { directory: Uint32Array };
  /**
   * Whose `words` are: the set's from now on (`taken`, the default); someone's who keeps them
   * unchanged (`shared`, a taxonomy value's bitset: read in place, the set owns only its
   * directory); or the caller's reused buffer (`borrowed`: a kept set that needs them copies them).
   */
  words?: 'taken' | 'shared' | 'borrowed';
}

/**
 * The set whose bit r of word r >>> 5 is set. A kept set with at most one member per word is the
 * sorted list of its members, which then takes no more memory than the bitset (at 1,500,000
 * quotes most combinations match a few thousand quotes: a few KB instead of 187 KB, so a cache of
 * sets holds many times more) and finds the k-th member by index. A denser one, a shared bitset,
 * and a transient set are the bitset with a directory of members before each block: listing
 * members costs more than counting them (measured in QUOTE_READS.md), which is worth paying only
 * for a set that is kept.
 */
export function rankSetOf(words: Uint32Array, options: RankSetOptions = {}): RankSet {
  const blocks = Math.ceil(words.length / blockWords);
  const directory = options.transient
    ? options.transient.directory.subarray(0, blocks + 1)
    : new Uint32Array(blocks + 1);
  let count = 0;
  for (let block = 0; block < blocks; block++) {
    directory[block] = count;
    const end = Math.min(words.length, (block + 1) * blockWords);
    for (let index = block * blockWords; index < end; index++) count += popcount32(words[index] as number);
  }
  directory[blocks] = count;
  const shared = options.words === 'shared';
  if (options.transient) return new BitsetRanks(words, directory, shared);
  if (!shared && count <= words.length) return new SortedRanks(listMembers(words, count));
  return new BitsetRanks(options.words === 'borrowed' ? words.slice() : words, directory, shared);
}

/** The ranks of a bitset's `count` set bits, ascending. */
function listMembers(words: Uint32Array, count: number): Uint32Array {
  const members = new Uint32Array(count);
  let at = 0;
  for (let index = 0; index < words.length; index++) {
    let word = words[index] as number;
    while (word !== 0) {
      const lowest = word & -word;
      members[at++] = index * 32 + 31 - Math.clz32(lowest);
      word ^= lowest;
    }
  }
  return members;
}

/** A set as the ascending list of its members. */
class SortedRanks implements RankSet {
  constructor(private readonly members: Uint32Array) {}

  get size(): number {
    return this.members.length;
  }

  get byteLength(): number {
    return this.members.byteLength;
  }

  has(rank: number): boolean {
    let low = 0;
    let high = this.members.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.members[middle] as number) < rank) low = middle + 1;
      else high = middle;
    }
    return this.members[low] === rank;
  }

  select(k: number): number | undefined {
    if (!Number.isInteger(k) || k < 0 || k >= this.members.length) return undefined;
    return this.members[k];
  }

  slice(offset: number, limit: number): number[] {
    const ranks: number[] = [];
    if (limit <= 0 || offset < 0) return ranks;
    const end = Math.min(offset + limit, this.members.length);
    for (let at = offset; at < end; at++) ranks.push(this.members[at] as number);
    return ranks;
  }
}

/**
 * A set as a plain bitset with a directory of how many members precede each block of 16 words:
 * the k-th member (a uniform random pick, or where a page at offset k starts) is a binary search
 * over the directory plus a scan of at most 16 words.
 */
class BitsetRanks implements RankSet {
  readonly size: number;

  constructor(
    private readonly words: Uint32Array,
    private readonly before: Uint32Array,
    private readonly shared: boolean,
  ) {
    this.size = before[before.length - 1] ?? 0;
  }

  get byteLength(): number {
    return (this.shared ? 0 : this.words.byteLength) + this.before.byteLength;
  }

  has(rank: number): boolean {
    return ((this.words[rank >>> 5] ?? 0) & (1 << (rank & 31))) !== 0;
  }

  select(k: number): number | undefined {
    if (!Number.isInteger(k) || k < 0 || k >= this.size) return undefined;
    const [index, n] = this.wordOf(k);
    return index * 32 + selectInWord(this.words[index] as number, n);
  }

  slice(offset: number, limit: number): number[] {
    const ranks: number[] = [];
    if (limit <= 0 || offset < 0 || offset >= this.size) return ranks;
    const [index, n] = this.wordOf(offset);
    // The first word: drop the n members before the offset.
    let word = this.words[index] as number;
    for (let skipped = 0; skipped < n; skipped++) word &= word - 1;
    for (let at = index; ; ) {
      while (word !== 0) {
        const lowest = word & -word;
        ranks.push(at * 32 + 31 - Math.clz32(lowest));
        if (ranks.length === limit) return ranks;
        word ^= lowest;
      }
      at++;
      if (at >= this.words.length) return ranks;
      word = this.words[at] as number;
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
