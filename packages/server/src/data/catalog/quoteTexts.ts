import type pg from 'pg';
import { CacheCounts } from './cacheCounts.js';
import { summariesByRank } from './quoteQueries.js';
import { RandomDrawBatcher } from './randomDrawBatcher.js';
import { TextSlabs } from './textSlabs.js';

/** Where a rank's texts are kept in the slabs: its QuoteSummary and its Quote side by side. */
const summaryId = (rank: number) => rank * 2;
const quoteId = (rank: number) => rank * 2 + 1;
/** Ranks per statement when the cache is filled ahead (preloadSummaries). */
const preloadChunk = 2000;

/**
 * The stored JSON of quotes (Quote for random picks, QuoteSummary for pages) by rank, for one
 * corpus version, as UTF-8 (written to sockets as it is), kept in byte-bounded slabs (see
 * textSlabs.ts): a page or a pick whose quotes were read before costs no statement, so hot
 * pages (the first pages of popular filters) are answered from memory while the corpus stays in
 * PostgreSQL. Misses are read by rank: a page's in one statement, random picks in batches
 * (RandomDrawBatcher). A new corpus version empties the cache; text read for an older version
 * is never kept. What is returned is the caller's own: copied out of the slabs, which later
 * reads overwrite.
 */
export class QuoteTexts {
  private readonly slabs: TextSlabs;
  private version = -1;
  private readonly draws: RandomDrawBatcher;
  /** Quotes and summaries found kept (hits) or read from the database (misses). */
  readonly counts = new CacheCounts();

  constructor(
    private readonly pool: pg.Pool,
    private readonly maxBytes: number,
  ) {
    this.slabs = new TextSlabs(maxBytes);
    this.draws = new RandomDrawBatcher(pool);
  }

  /** The Quote JSON at `rank`, or undefined when the corpus is no longer `version`. */
  async quote(rank: number, version: number): Promise<Buffer | undefined> {
    const id = quoteId(rank);
    const kept = this.current(version) ? this.slabs.peek(id) : undefined;
    if (kept !== undefined) {
      this.counts.hits++;
      const own = Buffer.from(kept);
      this.slabs.keep(id);
      return own;
    }
    this.counts.misses++;
    const text = await this.draws.fetch(rank, version);
    if (text === undefined) return undefined;
    if (this.current(version)) this.slabs.set(id, text);
    return Buffer.from(text, 'utf8');
  }

  /**
   * The QuoteSummary JSON at each of `ranks`, in their order (views into one Buffer of this
   * call's own), or undefined when the corpus is no longer `version`.
   */
  async summaries(ranks: readonly number[], version: number): Promise<Buffer[] | undefined> {
    const read = new Map<number, string>();
    // A text kept when the call began may be overwritten while it waits: asked again, at most twice.
    for (let attempt = 0; ; attempt++) {
      const current = this.current(version);
      const missing = ranks.filter(
        (rank) => !read.has(rank) && (attempt === 2 || !current || !this.slabs.has(summaryId(rank))),
      );
      if (missing.length === 0) break;
      const texts = await summariesByRank(this.pool, missing, version);
      if (texts.size !== new Set(missing).size) return undefined;
      for (const [rank, text] of texts) read.set(rank, text);
    }
    // From here on nothing waits, so the texts found kept above are still there to be copied.
    this.counts.misses += read.size;
    this.counts.hits += ranks.length - read.size;
    const lengths = ranks.map((rank) => {
      const text = read.get(rank);
      return text === undefined ? this.slabs.lengthOf(summaryId(rank)) : Buffer.byteLength(text);
    });
    const block = Buffer.allocUnsafe(lengths.reduce((sum, length) => sum + length, 0));
    const items: Buffer[] = [];
    let offset = 0;
    for (let index = 0; index < ranks.length; index++) {
      const rank = ranks[index]!;
      const text = read.get(rank);
      const length = lengths[index] as number;
      if (text === undefined) this.slabs.copyTo(summaryId(rank), block, offset);
      else block.write(text, offset, 'utf8');
      items.push(block.subarray(offset, offset + length));
      offset += length;
    }
    if (this.current(version)) {
      for (const rank of ranks) {
        const text = read.get(rank);
        if (text === undefined) this.slabs.keep(summaryId(rank));
        else this.slabs.set(summaryId(rank), text);
      }
    }
    return items;
  }

  /**
   * Reads the summaries of the first ranks, the best-curated quotes that the first pages of
   * every filter serve, a chunk at a time, until the cache is full but for two slabs (room for
   * what callers read next), the corpus ends or `goOn` (told how many are kept so far) says stop.
   * Returns the summaries kept.
   */
  async preloadSummaries(size: number, version: number, goOn: (kept: number) => boolean): Promise<number> {
    const room = this.maxBytes - 2 * this.slabs.slabBytes;
    let bytes = 0;
    let kept = 0;
    for (let from = 0; from < size && bytes < room && goOn(kept); from += preloadChunk) {
      const ranks = Array.from({ length: Math.min(preloadChunk, size - from) }, (_, i) => from + i);
      const texts = await summariesByRank(this.pool, ranks, version);
      if (!this.current(version) || texts.size !== ranks.length) break;
      for (const [rank, text] of texts) {
        this.slabs.set(summaryId(rank), text);
        bytes += 4 + Buffer.byteLength(text);
        kept++;
      }
    }
    return kept;
  }

  /** Empties the cache. */
  forget(): void {
    this.slabs.clear();
  }

  /** Whether the cache holds `version`'s text: a newer version empties it, an older one is not cached. */
  private current(version: number): boolean {
    if (version > this.version) {
      this.slabs.clear();
      this.version = version;
    }
    return version === this.version;
  }
}
