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
 * The set whose bit r of word r >>> 5 is set. A kept set with at most two members per word is
 * packed: its members in order, 2 bytes each, which then takes no more memory than the bitset (at
 * 1,500,000 quotes most combinations match a few thousand quotes: a few KB instead of 187 KB, so a
 * cache of sets holds many times more) and finds the k-th member by index. A denser one, a shared
 * bitset, and a transient set are the bitset with a directory of members before each block:
 * listing members costs more than counting them (measured in QUOTE_READS.md), which is worth
 * paying only for a set that is kept.
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
  if (!shared && count <= 2 * words.length) return packedRanks(words, count);
  return new BitsetRanks(options.words === 'borrowed' ? words.slice() : words, directory, shared);
}

/**
 * Over counts of members preceding each block (a block directory or a packed set's chunk starts,
 * the last entry the size), the last block whose count is at most k: the block holding the member
 * at position k, for 0 <= k < size.
 */
function lastPrecedingAtMost(preceding: Uint32Array, k: number): number {
  let low = 0;
  let high = preceding.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if ((preceding[middle] as number) <= k) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Ranks per chunk of a packed set: a member is kept as its low 16 bits. */
export const chunkRanks = 65_536;
export const chunkWords = chunkRanks / 32;

/** A packed set of members given as their low 16 bits in order, with where each chunk starts among them (the last entry the size). */
export function packedRanksFrom(lows: Uint16Array, starts: Uint32Array): RankSet {
  return new PackedRanks(lows, starts);
}

/** The `count` set bits of a bitset as a packed set. */
function packedRanks(words: Uint32Array, count: number): PackedRanks {
  const chunks = Math.ceil(words.length / chunkWords);
  const lows = new Uint16Array(count);
  const starts = new Uint32Array(chunks + 1);
  let at = 0;
  for (let chunk = 0; chunk < chunks; chunk++) {
    starts[chunk] = at;
    const first = chunk * chunkWords;
    const end = Math.min(words.length, first + chunkWords);
    for (let index = first; index < end; index++)
      at = appendLows(words[index] as number, (index - first) * 32, lows, at);
  }
  starts[chunks] = at;
  return new PackedRanks(lows, starts);
}

/**
 * Writes the set bits of `word` into `lows` from position `at`, each as `base` plus its bit (its
 * rank's low 16 bits, `base` being the word's offset in its chunk), and returns the next position.
 */
export function appendLows(word: number, base: number, lows: Uint16Array, at: number): number {
  let rest = word;
  let next = at;
  while (rest !== 0) {
    const lowest = rest & -rest;
    lows[next++] = base + 31 - Math.clz32(lowest);
    rest ^= lowest;
  }
  return next;
}

/**
 * A set as its members in ascending order, each as its low 16 bits, with where each chunk of
 * 65,536 ranks starts among them (as Roaring's array containers): 2 bytes a member, and the k-th
 * member is the k-th entry, its chunk a binary search over at most a few dozen.
 */
class PackedRanks implements RankSet {
  constructor(
    private readonly lows: Uint16Array,
    /** Entry c: how many members precede chunk c; the last entry is the size. */
    private readonly starts: Uint32Array,
  ) {}

  get size(): number {
    return this.lows.length;
  }

  get byteLength(): number {
    return this.lows.byteLength + this.starts.byteLength;
  }

  has(rank: number): boolean {
    const chunk = Math.floor(rank / chunkRanks);
    if (!Number.isInteger(rank) || rank < 0 || chunk >= this.starts.length - 1) return false;
    const low = rank % chunkRanks;
    let from = this.starts[chunk] as number;
    let to = this.starts[chunk + 1] as number;
    while (from < to) {
      const middle = (from + to) >>> 1;
      if ((this.lows[middle] as number) < low) from = middle + 1;
      else to = middle;
    }
    return from < (this.starts[chunk + 1] as number) && this.lows[from] === low;
  }

  select(k: number): number | undefined {
    if (!Number.isInteger(k) || k < 0 || k >= this.lows.length) return undefined;
    return this.chunkOf(k) * chunkRanks + (this.lows[k] as number);
  }

  slice(offset: number, limit: number): number[] {
    const ranks: number[] = [];
    if (limit <= 0 || offset < 0 || offset >= this.lows.length) return ranks;
    const end = Math.min(offset + limit, this.lows.length);
    let chunk = this.chunkOf(offset);
    for (let at = offset; at < end; at++) {
      while ((this.starts[chunk + 1] as number) <= at) chunk++;
      ranks.push(chunk * chunkRanks + (this.lows[at] as number));
    }
    return ranks;
  }

  /** The chunk holding the member at position k (0 <= k < size). */
  private chunkOf(k: number): number {
    return lastPrecedingAtMost(this.starts, k);
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
    const low = lastPrecedingAtMost(this.before, k);
    let remaining = k - (this.before[low] as number);
    for (let index = low * blockWords; ; index++) {
      const count = popcount32(this.words[index] as number);
      if (remaining < count) return [index, remaining];
      remaining -= count;
    }
  }
}
