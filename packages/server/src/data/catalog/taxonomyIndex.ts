import { type Taxonomy, taxonomy } from '@quotes/contract';
import type { ResolvedFilter } from '@quotes/accounts/rules';
import { CategoryPairs } from './categoryPairs.js';
import { directoryLength, type RankSet, rankSetOf } from './rankSet.js';

/**
 * How one quote's tags travel from PostgreSQL as one 32-bit code (see quoteQueries.ts): each
 * single-valued tag as its 1-based position in the taxonomy list (0: none), the moods as one bit
 * per mood. The widths follow the taxonomy, so a longer list moves the fields, never truncates.
 */
export interface TagCodeLayout {
  /** category, length, era, faith: the value's 1-based position in `values` at `shift`, `width` bits. */
  readonly single: readonly {
    readonly parameter: 'category' | 'length' | 'era' | 'faith';
    readonly column: string;
    readonly values: readonly string[];
    readonly shift: number;
    readonly width: number;
  }[];
  /** Bit (moodsShift + i) is set when the quote has moods[i]. */
  readonly moods: readonly string[];
  readonly moodsShift: number;
}

export function tagCodeLayout(source: Taxonomy = taxonomy): TagCodeLayout {
  let shift = 0;
  const field = (parameter: 'category' | 'length' | 'era' | 'faith', column: string, values: readonly string[]) => {
    const width = Math.ceil(Math.log2(values.length + 1));
    const placed = { parameter, column, values, shift, width };
    shift += width;
    return placed;
  };
  const single = [
    field('category', 'category', source.categories),
    field('length', 'length', source.lengths),
    field('era', 'era', source.eras),
    field('faith', 'faith_tradition', source.faithTraditions),
  ];
  if (shift + source.moods.length > 31) throw new Error('the taxonomy no longer fits one 31-bit tag code');
  return { single, moods: source.moods, moodsShift: shift };
}

/** The layout as text, to compare with the one the stored tag codes were written in (quote_tag_layout()). */
export function layoutDescription(layout: TagCodeLayout): string {
  return JSON.stringify({
    single: layout.single.map((field) => [field.parameter, field.values, field.shift]),
    moods: layout.moods,
    moodsShift: layout.moodsShift,
  });
}

/**
 * One bitset per taxonomy value over the quotes in rank order, built once per corpus version
 * from one read of (rank, tag code). A filter is an OR of its parameter's values and an AND
 * across parameters, a few passes over words; nothing about a combination is asked of the
 * database. About 67 x size / 8 bytes (1.3 MB at 150,000 quotes, 12.6 MB at 1,500,000), and the
 * category pair lists once built (categoryPairs.ts).
 */
export class TaxonomyIndex {
  private readonly bitsets = new Map<string, Uint32Array>();
  private readonly everything: Uint32Array;
  /** Buffers reused by every match: the transient result, the union, and where sets are built. */
  private scratch: { result: Uint32Array; union: Uint32Array; directory: Uint32Array } | undefined;
  /** Each category's members per other value, once built (pairUp): combinations with one category match from them. */
  private pairs: CategoryPairs | undefined;
  readonly wordCount: number;

  private constructor(
    readonly version: number,
    readonly rankBound: number,
    private readonly layout: TagCodeLayout,
  ) {
    this.wordCount = Math.ceil(rankBound / 32);
    for (const field of layout.single)
      for (const value of field.values)
        this.bitsets.set(keyOf(field.parameter, value), new Uint32Array(this.wordCount));
    for (const mood of layout.moods) this.bitsets.set(keyOf('mood', mood), new Uint32Array(this.wordCount));
    this.everything = new Uint32Array(this.wordCount);
  }

  /**
   * From (rank, code) pairs as big-endian int32s, the form quoteQueries.ts reads them in, with the
   * category pair lists unless `pairLists` is false (bitsets alone, as the bench's index
   * micro-measurement compares them with Roaring).
   */
  static fromPairs(
    version: number,
    pairs: Buffer,
    layout: TagCodeLayout = tagCodeLayout(),
    options: { pairLists?: boolean } = {},
  ): TaxonomyIndex {
    let rankBound = 0;
    for (let offset = 0; offset + 8 <= pairs.length; offset += 8)
      rankBound = Math.max(rankBound, pairs.readInt32BE(offset) + 1);
    const index = TaxonomyIndex.empty(version, rankBound, layout);
    index.add(pairs);
    if (options.pairLists !== false) {
      const steps = index.pairSteps();
      while (!steps.next().done);
    }
    return index;
  }

  /** Builds the category pair lists once every quote is added, yielding to the event loop between categories. */
  async pairUp(): Promise<void> {
    const steps = this.pairSteps();
    while (!steps.next().done) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  private *pairSteps(): Generator<void, void> {
    const valueBits = (parameter: string, values: readonly string[]) =>
      values.map((value) => {
        const key = keyOf(parameter, value);
        return { key, bits: this.bitsets.get(key) as Uint32Array };
      });
    const others = [
      ...valueBits('mood', this.layout.moods),
      ...this.layout.single
        .filter((field) => field.parameter !== 'category')
        .flatMap((field) => valueBits(field.parameter, field.values)),
    ];
    const categories = this.layout.single.flatMap((field) =>
      field.parameter === 'category' ? valueBits('category', field.values) : [],
    );
    this.pairs = yield* CategoryPairs.build(this.wordCount, categories, others);
  }

  /** An index with no quote yet, for ranks below `rankBound`; filled chunk by chunk with add(). */
  static empty(version: number, rankBound: number, layout: TagCodeLayout = tagCodeLayout()): TaxonomyIndex {
    return new TaxonomyIndex(version, rankBound, layout);
  }

  /** Sets the bits of (rank, code) pairs; ranks at or above the bound are refused. */
  add(pairs: Buffer): void {
    const layout = this.layout;
    const singles = layout.single.map((field) => ({
      mask: (1 << field.width) - 1,
      shift: field.shift,
      sets: field.values.map((value) => this.bitsets.get(keyOf(field.parameter, value)) as Uint32Array),
    }));
    const moodSets = layout.moods.map((mood) => this.bitsets.get(keyOf('mood', mood)) as Uint32Array);
    const count = Math.floor(pairs.length / 8);
    for (let row = 0; row < count; row++) {
      const rank = pairs.readInt32BE(row * 8);
      const code = pairs.readInt32BE(row * 8 + 4);
      if (rank < 0 || rank >= this.rankBound)
        throw new RangeError(`rank ${rank} outside the index (0..${this.rankBound - 1})`);
      const word = rank >>> 5;
      const bit = 1 << (rank & 31);
      this.everything[word] = (this.everything[word] as number) | bit;
      for (const single of singles) {
        const position = (code >>> single.shift) & single.mask;
        const set = single.sets[position - 1];
        if (set) set[word] = (set[word] as number) | bit;
      }
      let moods = code >>> layout.moodsShift;
      for (let mood = 0; moods !== 0; mood++, moods >>>= 1) {
        const set = moodSets[mood];
        if (moods & 1 && set) set[word] = (set[word] as number) | bit;
      }
    }
  }

  get byteLength(): number {
    return (this.bitsets.size + 1) * this.wordCount * 4 + (this.pairs?.byteLength ?? 0);
  }

  /** The most a kept match set of this index takes: a whole bitset and its directory. */
  get largestSetBytes(): number {
    return (this.wordCount + directoryLength(this.wordCount)) * 4;
  }

  private buffers(): { result: Uint32Array; union: Uint32Array; directory: Uint32Array } {
    this.scratch ??= {
      result: new Uint32Array(this.wordCount),
      union: new Uint32Array(this.wordCount),
      directory: new Uint32Array(directoryLength(this.wordCount)),
    };
    return this.scratch;
  }

  /**
   * The ranks matching the filter: OR within a parameter's resolved values, AND across
   * parameters. A transient result is built in buffers this index reuses: no allocation, for a
   * combination that may never be asked again, but it is valid only until the next match, so it
   * must be read at once (synchronously) and never kept.
   */
  matching(filter: ResolvedFilter, options: { transient?: boolean } = {}): RankSet {
    const paired = this.matchingPaired(filter, options.transient === true);
    if (paired) return paired;
    const parameters: Array<readonly Uint32Array[]> = [];
    const add = (parameter: string, values: readonly string[] | null) => {
      if (values === null) return;
      parameters.push(values.map((value) => this.bitsets.get(keyOf(parameter, value)) ?? new Uint32Array(0)));
    };
    add('category', filter.categories);
    add('mood', filter.moods);
    add('length', filter.length === null ? null : [filter.length]);
    add('era', filter.era === null ? null : [filter.era]);
    add('faith', filter.faith === null ? null : [filter.faith]);
    const transient = options.transient === true;
    const buffers = this.buffers();
    const build = (words: Uint32Array, whose: 'shared' | 'borrowed') =>
      rankSetOf(words, { words: whose, ...(transient ? { transient: { directory: buffers.directory } } : {}) });
    if (parameters.length === 0) return build(this.everything, 'shared');
    // A single bitset is shared as it is: neither side ever writes to it again.
    if (parameters.length === 1 && parameters[0]?.length === 1) return build(parameters[0][0] as Uint32Array, 'shared');
    // Single-valued parameters are ANDed in straight from their bitsets; only a parameter with
    // several values needs its union built first. Fewest values first: the result starts as a
    // copy of one bitset where it can.
    parameters.sort((a, b) => a.length - b.length);
    // Built in the reused buffer even when kept: a kept set copies out what it keeps (its sorted
    // members, or the words of a dense one), so a combination costs no bitset-sized garbage.
    const result = buffers.result.fill(0);
    const union = buffers.union;
    parameters.forEach((sets, position) => {
      if (position === 0) {
        for (const set of sets) orInto(result, set);
        return;
      }
      if (sets.length === 1) {
        andInto(result, sets[0] as Uint32Array);
        return;
      }
      union.fill(0);
      for (const set of sets) orInto(union, set);
      andInto(result, union);
    });
    return build(result, 'borrowed');
  }

  /**
   * One category and at least one single-valued other parameter: the members of the smallest
   * (category, value) pair that match the rest, as a packed set; undefined otherwise, or where
   * that pair is dense enough that a kept set of it would be a bitset.
   */
  private matchingPaired(filter: ResolvedFilter, transient: boolean): RankSet | undefined {
    const pairs = this.pairs;
    if (!pairs || filter.categories?.length !== 1) return undefined;
    const category = keyOf('category', filter.categories[0] as string);
    const others: string[][] = [];
    if (filter.moods !== null) others.push(filter.moods.map((mood) => keyOf('mood', mood)));
    if (filter.length !== null) others.push([keyOf('length', filter.length)]);
    if (filter.era !== null) others.push([keyOf('era', filter.era)]);
    if (filter.faith !== null) others.push([keyOf('faith', filter.faith)]);
    let chosen = -1;
    let smallest = 2 * this.wordCount + 1;
    others.forEach((keys, position) => {
      const size = keys.length === 1 ? pairs.sizeOf(category, keys[0] as string) : undefined;
      if (size !== undefined && size < smallest) {
        chosen = position;
        smallest = size;
      }
    });
    if (chosen < 0) return undefined;
    const tests = others
      .filter((_, position) => position !== chosen)
      .map((keys) => keys.map((key) => this.bitsets.get(key) ?? new Uint32Array(0)));
    return pairs.matching(category, (others[chosen] as string[])[0] as string, tests, transient);
  }
}

function keyOf(parameter: string, value: string): string {
  return `${parameter}\u0000${value}`;
}

function orInto(target: Uint32Array, source: Uint32Array): void {
  const end = Math.min(target.length, source.length);
  for (let index = 0; index < end; index++) target[index] = (target[index] as number) | (source[index] as number);
}

function andInto(target: Uint32Array, source: Uint32Array): void {
  for (let index = 0; index < target.length; index++) target[index] = (target[index] as number) & (source[index] ?? 0);
}
