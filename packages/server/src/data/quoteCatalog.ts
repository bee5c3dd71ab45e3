import { createHash } from 'node:crypto';
import type { FilterValues, Quote } from '@quotes/contract';
import type pg from 'pg';
import { isUnfiltered, matchSetKey, type ResolvedFilter } from '../domain/filterResolution.js';
import { type PageRequest, pageWindow } from '../domain/pagination.js';
import { filterValuesBody, type JsonText, storedQuote } from '../domain/responseBodies.js';
import { ByteBoundedLru } from './byteBoundedLru.js';
import { RandomDrawBatcher } from './randomDrawBatcher.js';
import {
  type CorpusState,
  categoryCounts,
  matchingRanks,
  type PageItems,
  quotesAtRanks,
  quotesInRankRange,
  readCorpusState,
} from './quoteQueries.js';

/** The corpus was replaced between two reads of one call; the call starts over once. */
class CorpusChanged extends Error {}

export interface QuoteCatalogOptions {
  /** Bound on the memory the cached match sets hold. */
  cacheBytes: number;
  /**
   * Whether corpus notifications are being received. Without them the corpus version is read
   * on every call instead of trusted from memory.
   */
  notificationsLive: () => boolean;
  random?: () => number;
}

export interface FilterValuesBody {
  readonly body: JsonText<FilterValues>;
  /** A strong ETag, quoted, as the contract's ETag header has it. */
  readonly etag: string;
}

export interface QuotePage {
  /** The page's QuoteSummary items, already JSON (see quoteQueries.ts). */
  items: PageItems;
  total: number;
  hasMore: boolean;
}

/**
 * The quotes as the request path reads them. A resolved filter maps to the ascending ranks of
 * its matching quotes (computed once per corpus version by one index-backed query, then kept in
 * a byte-bounded LRU): the total is the array's length, a page is a slice, a random quote a
 * uniform index into it, each fetched by rank on a unique index. Without a filter the dense
 * rank 0..size-1 is the match set and needs no array. Cost per call does not grow with the corpus.
 */
export class QuoteCatalog {
  private state: Promise<CorpusState> | undefined;
  private readonly matchSets: ByteBoundedLru<Int32Array>;
  private readonly loadingMatchSets = new Map<string, Promise<{ version: number; ranks: Int32Array }>>();
  private filterValues: (FilterValuesBody & { version: number }) | undefined;
  private readonly random: () => number;
  private readonly draws: RandomDrawBatcher;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: QuoteCatalogOptions,
  ) {
    this.matchSets = new ByteBoundedLru(options.cacheBytes, (ranks) => ranks.byteLength + 128);
    this.random = options.random ?? Math.random;
    this.draws = new RandomDrawBatcher(pool);
  }

  /** Drops everything derived from the corpus (a NOTIFY said it changed, or notifications were lost). */
  invalidate(): void {
    this.state = undefined;
    this.matchSets.clear();
    this.loadingMatchSets.clear();
    this.filterValues = undefined;
  }

  get cachedMatchSetBytes(): number {
    return this.matchSets.bytes;
  }

  /** A random matching quote as the contract's Quote JSON; undefined when nothing matches. */
  async randomQuote(filter: ResolvedFilter): Promise<JsonText<Quote> | undefined> {
    return this.onCurrentCorpus(async (state) => {
      let rank: number;
      if (isUnfiltered(filter)) {
        if (state.size === 0) return undefined;
        rank = Math.floor(this.random() * state.size);
      } else {
        const ranks = await this.matchSet(filter, state);
        if (ranks.length === 0) return undefined;
        rank = ranks[Math.floor(this.random() * ranks.length)]!;
      }
      const quote = await this.draws.fetch(rank, state.version);
      if (!quote) throw new CorpusChanged();
      return storedQuote(quote);
    });
  }

  async page(filter: ResolvedFilter, page: PageRequest): Promise<QuotePage> {
    return this.onCurrentCorpus(async (state) => {
      const unfiltered = isUnfiltered(filter);
      const ranks = unfiltered ? undefined : await this.matchSet(filter, state);
      const total = ranks ? ranks.length : state.size;
      const { start, end, hasMore } = pageWindow(total, page);
      if (start >= end) return { items: { json: '', count: 0 }, total, hasMore };
      const items = ranks
        ? await quotesAtRanks(this.pool, Array.from(ranks.subarray(start, end)), state.version)
        : await quotesInRankRange(this.pool, start, end, state.version);
      if (items.count !== end - start) throw new CorpusChanged();
      return { items, total, hasMore };
    });
  }

  /** The FilterValues body and its ETag, computed once per corpus version. */
  async filterValuesBody(): Promise<FilterValuesBody> {
    const state = await this.corpusState();
    if (this.filterValues?.version === state.version) return this.filterValues;
    const { version, counts } = await categoryCounts(this.pool);
    const body = filterValuesBody(counts);
    // A hash of the body rather than the corpus version: every server on one database agrees.
    const etag = `"fv-${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    if (version === state.version) this.filterValues = { version, body, etag };
    return { body, etag };
  }

  private async onCurrentCorpus<T>(read: (state: CorpusState) => Promise<T>): Promise<T> {
    try {
      return await read(await this.corpusState());
    } catch (error) {
      if (!(error instanceof CorpusChanged)) throw error;
      this.invalidate();
      return read(await this.corpusState());
    }
  }

  private corpusState(): Promise<CorpusState> {
    if (!this.options.notificationsLive()) return readCorpusState(this.pool);
    if (!this.state) {
      const loading = readCorpusState(this.pool);
      this.state = loading;
      loading.catch(() => {
        if (this.state === loading) this.state = undefined;
      });
    }
    return this.state;
  }

  private async matchSet(filter: ResolvedFilter, state: CorpusState): Promise<Int32Array> {
    const cacheKey = `${state.version}|${matchSetKey(filter)}`;
    const cached = this.matchSets.get(cacheKey);
    if (cached) return cached;
    let loading = this.loadingMatchSets.get(cacheKey);
    if (!loading) {
      const started = matchingRanks(this.pool, filter);
      loading = started;
      this.loadingMatchSets.set(cacheKey, started);
      started.then(
        (result) => {
          if (this.loadingMatchSets.get(cacheKey) !== started) return;
          this.loadingMatchSets.delete(cacheKey);
          // Kept only under the version it was computed on; any other version's key never asks for it.
          this.matchSets.set(`${result.version}|${matchSetKey(filter)}`, result.ranks);
        },
        () => {
          if (this.loadingMatchSets.get(cacheKey) === started) this.loadingMatchSets.delete(cacheKey);
        },
      );
    }
    const result = await loading;
    if (result.version !== state.version) throw new CorpusChanged();
    return result.ranks;
  }
}
