import type pg from 'pg';
import { ownUtf8 } from '../domain/responseBodies.js';
import { LRUCache } from 'lru-cache';
import { summariesByRank } from './quoteQueries.js';
import { RandomDrawBatcher } from './randomDrawBatcher.js';

/** A kept quote's bytes, plus about what its buffer object, map entry and key cost. */
const entryBytes = (bytes: Buffer) => bytes.length + 200;

/**
 * The stored JSON of quotes (Quote for random picks, QuoteSummary for pages) by rank, for one
 * corpus version, as UTF-8 (written to sockets as it is), kept in a byte-bounded LRU: a page or a pick whose quotes were read before
 * costs no statement, so hot pages (the first pages of popular filters) are answered from memory
 * while the corpus stays in PostgreSQL. Misses are read by rank: a page's in one statement,
 * random picks in batches (RandomDrawBatcher). A new corpus version empties the cache; text read
 * for an older version is never kept.
 */
export class QuoteTexts {
  private readonly cache: LRUCache<string, Buffer>;
  private version = -1;
  private readonly draws: RandomDrawBatcher;

  constructor(
    private readonly pool: pg.Pool,
    maxBytes: number,
  ) {
    // lru-cache needs a positive bound; at 1 byte nothing fits, which is what 0 asks for.
    this.cache = new LRUCache({ maxSize: Math.max(1, maxBytes), sizeCalculation: entryBytes });
    this.draws = new RandomDrawBatcher(pool);
  }

  /** The Quote JSON at `rank`, or undefined when the corpus is no longer `version`. */
  async quote(rank: number, version: number): Promise<Buffer | undefined> {
    const key = `q${rank}`;
    const cached = this.current(version) ? this.cache.get(key) : undefined;
    if (cached !== undefined) return cached;
    const text = await this.draws.fetch(rank, version);
    if (text === undefined) return undefined;
    const quote = ownUtf8(text);
    if (this.current(version)) this.cache.set(key, quote);
    return quote;
  }

  /** The QuoteSummary JSON at each of `ranks`, in their order, or undefined when the corpus is no longer `version`. */
  async summaries(ranks: readonly number[], version: number): Promise<Buffer[] | undefined> {
    const current = this.current(version);
    const texts: Array<Buffer | undefined> = ranks.map((rank) => (current ? this.cache.get(`s${rank}`) : undefined));
    const missing = ranks.filter((_, index) => texts[index] === undefined);
    if (missing.length === 0) return texts as Buffer[];
    const read = await summariesByRank(this.pool, missing, version);
    if (read.size !== new Set(missing).size) return undefined;
    const keep = this.current(version);
    for (const [index, rank] of ranks.entries()) {
      if (texts[index] !== undefined) continue;
      const summary = ownUtf8(read.get(rank) as string);
      texts[index] = summary;
      if (keep) this.cache.set(`s${rank}`, summary);
    }
    return texts as Buffer[];
  }

  /** Whether the cache holds `version`'s text: a newer version empties it, an older one is not cached. */
  private current(version: number): boolean {
    if (version > this.version) {
      this.cache.clear();
      this.version = version;
    }
    return version === this.version;
  }
}
