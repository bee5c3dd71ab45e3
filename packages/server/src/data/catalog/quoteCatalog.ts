import type { FilterValues, Quote } from '@quotes/contract';
import { LRUCache } from 'lru-cache';
import { AskedBefore, type FirstAsk } from './askedBefore.js';
import { CacheCounts } from './cacheCounts.js';
import type pg from 'pg';
import { isUnfiltered, matchSetKey, type ResolvedFilter } from '@quotes/accounts/rules';
import { type PageRequest, pageWindow } from '@quotes/accounts/rules';
import {
  filterValuesBody,
  filterValuesEtag,
  type JsonText,
  quotePageBody,
  storedQuote,
} from '../../domain/responseBodies.js';
import type { CorpusAnnouncement } from '../databaseNotifications.js';
import {
  type CorpusState,
  type CorpusTable,
  categoryCounts,
  nextCorpusSize,
  rankTagCodes,
  readCorpusState,
} from './quoteQueries.js';
import { FiledQuotes } from './filedQuotes.js';
import { HeldQuotes, HeldQuotesChanged } from './heldQuotes.js';
import { collectReleased } from './releasedMemory.js';
import { summariesOfQuotes } from './quoteSummaries.js';
import { QuoteTexts } from './quoteTexts.js';
import { RandomPicks } from './randomPicks.js';
import type { RankSet } from './rankSet.js';
import { TaxonomyIndex, tagCodeLayout } from './taxonomyIndex.js';

/** Ranks per statement when the index is built: 2 MB of pairs, 4 MB as the hex text they arrive in. */
const indexChunkRanks = 262_144;
/** What a cached match set or page takes besides its bytes (its key and the cache's entry). */
const setEntryBytes = 128;
const pageBytes = (page: PageBody) => page.body.length + page.ranks.length * 8 + setEntryBytes;

export type { FirstAsk } from './askedBefore.js';

/** The corpus was replaced between two reads of one call; the call starts over once. */
class CorpusChanged extends Error {}

export interface QuoteCatalogOptions {
  /** Bound on the memory the combined match sets of recent filters hold (the index itself is apart). */
  cacheBytes: number;
  /** Bound on the memory the quotes' JSON read recently holds: three quarters as quotes (see quoteTexts.ts), a quarter as whole pages. */
  quoteTextBytes: number;
  /** Every quote's JSON is held with the index when it totals at most this (see heldQuotes.ts); 0 holds none. */
  heldQuoteBytes?: number;
  /** When they do not, they are held in a file (see filedQuotes.ts) when they total at most this; 0 files none. */
  quoteFileBytes?: number;
  /** The folder that file is made in (default: the OS's temporary folder). */
  quoteFileDirectory?: string;
  /**
   * Whether corpus notifications are being received. Without them the corpus version is read
   * on every call instead of trusted from memory.
   */
  notificationsLive: () => boolean;
  random?: () => number;
  /** Ranks per statement when the index is built (default 262,144). */
  indexChunkRanks?: number;
}

export interface FilterValuesBody {
  readonly body: JsonText<FilterValues>;
  /** A strong ETag, quoted, as the contract's ETag header has it. */
  readonly etag: string;
}

/** A page's body as the contract's QuotePage JSON, and the ranks it served. */
export interface PageBody {
  readonly body: ReturnType<typeof quotePageBody>;
  readonly ranks: readonly number[];
}

export interface QuotePage {
  /** The page's QuoteSummary items, each already JSON as UTF-8 (see quoteQueries.ts). */
  items: Buffer[];
  /** The items' positions in the corpus (its ranks, 0 to size - 1): what corpus coverage counts. */
  ranks: readonly number[];
  total: number;
  hasMore: boolean;
}

/**
 * The quotes as the request path reads them. Every filter is answered from the taxonomy index
 * (one bitset per taxonomy value over the ranks, built once per corpus version): the total is a
 * count kept with the combined set, a page the next members from an offset, a random quote the
 * k-th member for a uniform k; only the chosen quotes' stored JSON is read, by rank on a unique
 * index. Without a filter the dense rank 0..size-1 is the match set and needs no bitset. Cost
 * per call does not grow with the corpus, and a combination never seen costs what a seen one does.
 */
export class QuoteCatalog {
  private state: Promise<CorpusState> | undefined;
  private index: Promise<TaxonomyIndex> | undefined;
  private preparing: Promise<void> = Promise.resolve();
  /** The index of a corpus a loader announced and has not swapped in yet, once built. */
  private next: (CorpusAnnouncement & { index: TaxonomyIndex | undefined }) | undefined;
  /** The announced index in use, so the swap's notification, arriving after a read noticed the swap, keeps it. */
  private adopted: (CorpusAnnouncement & { index: TaxonomyIndex }) | undefined;
  private readonly matchSets: LRUCache<string, RankSet>;
  /** Combinations asked before: the second ask builds and caches the set. */
  private readonly setAsks = new AskedBefore();
  /** Whole page bodies by corpus version, filter and page, kept from their second ask. */
  private readonly pageBodies: LRUCache<string, PageBody>;
  private readonly pageAsks = new AskedBefore();
  /** The corpus version of the match sets last asked for (isNew's). */
  private keptVersion: number | undefined;
  private filterValues: (FilterValuesBody & { version: number }) | undefined;
  private readonly random: () => number;
  private readonly texts: QuoteTexts;
  private readonly picks: RandomPicks;
  private readonly layout = tagCodeLayout();
  /** Every quote's JSON of an index's corpus, read with it when it fits memory or the file. */
  private readonly heldByIndex = new WeakMap<TaxonomyIndex, HeldQuotes | FiledQuotes>();
  /** Those of the index in use: random picks of its corpus version are answered from them. */
  private held: HeldQuotes | FiledQuotes | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: QuoteCatalogOptions,
  ) {
    this.matchSets = new LRUCache({
      maxSize: Math.max(1, options.cacheBytes),
      sizeCalculation: (set) => set.byteLength + setEntryBytes,
    });
    this.pageBodies = new LRUCache({
      maxSize: Math.max(1, Math.floor(options.quoteTextBytes / 4)),
      sizeCalculation: pageBytes,
    });
    this.random = options.random ?? Math.random;
    this.texts = new QuoteTexts(pool, options.quoteTextBytes - Math.floor(options.quoteTextBytes / 4));
    this.picks = new RandomPicks(pool);
  }

  /**
   * Drops everything derived from the corpus (a NOTIFY said it changed, or notifications were
   * lost). When the change is the one announced before, the index built for it is kept.
   */
  invalidate(change?: CorpusAnnouncement): void {
    const same = (a: CorpusAnnouncement, b: CorpusAnnouncement) => a.version === b.version && a.loader === b.loader;
    const next = this.next;
    const ready =
      change === undefined
        ? undefined
        : next?.index && same(next, change)
          ? { ...change, index: next.index }
          : this.adopted && same(this.adopted, change)
            ? this.adopted
            : undefined;
    this.next = undefined;
    this.adopted = ready;
    this.state = undefined;
    this.index = ready ? Promise.resolve(ready.index) : undefined;
    this.useHeld(ready ? this.heldByIndex.get(ready.index) : undefined);
    if (next?.index) this.releaseUnused(next.index);
    this.matchSets.clear();
    this.setAsks.clear();
    this.forgetPages();
    this.picks.forget();
    this.filterValues = undefined;
    // Only with notifications live: otherwise the database may be the thing that is down.
    if (this.options.notificationsLive()) this.prepare();
  }

  /**
   * Serves random picks from `held` from now on; those held before are let go (a file's is closed
   * at once rather than when its index is collected). Calls still holding them read PostgreSQL.
   */
  private useHeld(held: HeldQuotes | FiledQuotes | undefined): void {
    if (this.held !== held) this.held?.release();
    this.held = held;
  }

  /** Every quote of `version`, held in memory or in a file, if they are (not for another version). */
  private heldFor(version: number): HeldQuotes | FiledQuotes | undefined {
    return this.held?.version === version ? this.held : undefined;
  }

  /** Lets go the quotes held for an index that is not served (superseded, or dropped before its swap). */
  private releaseUnused(index: TaxonomyIndex): void {
    const held = this.heldByIndex.get(index);
    if (held && held !== this.held) held.release();
  }

  /** Lets every quote held go, and closes the file they may be held in: the server is closing. */
  close(): void {
    this.useHeld(undefined);
    if (this.next?.index) this.releaseUnused(this.next.index);
  }

  /** Forgets the match sets and quotes' JSON read so far, keeping the index (see requestPathWarmUp.ts). */
  forgetReads(): void {
    this.matchSets.clear();
    this.setAsks.clear();
    this.forgetPages();
    this.texts.forget();
    this.picks.forget();
  }

  private forgetPages(): void {
    this.pageBodies.clear();
    this.pageAsks.clear();
  }

  /**
   * Starts building the index for the current corpus without waiting for it, so the first
   * filtered call after a start or a reload finds it built or under way. A failure here is
   * retried by the next call that needs the index.
   */
  prepare(): void {
    const preparing = this.corpusState()
      .then((state) => this.taxonomyIndex(state))
      .then(
        () => undefined,
        () => undefined,
      );
    this.preparing = preparing;
  }

  /**
   * Builds the index of the corpus a loader committed as quotes_next and announced as
   * `announced.version`, while the current one keeps serving; the swap then finds it built (see
   * invalidate). Settles when built or failed (a failure leaves the rebuild to after the swap).
   */
  async prepareNext(announced: CorpusAnnouncement): Promise<void> {
    const entry = { ...announced, index: undefined as TaxonomyIndex | undefined };
    const superseded = this.next?.index;
    this.next = entry;
    if (superseded) this.releaseUnused(superseded);
    try {
      const index = await this.buildIndex('quotes_next', announced.version);
      if (this.next === entry) entry.index = index;
      else this.releaseUnused(index);
    } catch {
      if (this.next === entry) this.next = undefined;
    }
  }

  /** Settles once the latest prepare() has finished, built or failed: a server starts answering after it. */
  whenPrepared(): Promise<void> {
    return this.preparing;
  }

  /** Filtered calls whose match set was cached (hits) or built (misses). */
  readonly matchSetCounts = new CacheCounts();

  /** The quotes' JSON found kept (hits) or read (misses). */
  get quoteTextCounts(): CacheCounts {
    return this.texts.counts;
  }

  get cachedMatchSetBytes(): number {
    return this.matchSets.calculatedSize;
  }

  /** Bytes the taxonomy index holds, once built. */
  async indexBytes(): Promise<number> {
    return (await this.taxonomyIndex(await this.corpusState())).byteLength;
  }

  /** Bytes of memory every quote's JSON held for the corpus served takes (its offsets only when filed). */
  get heldQuoteBytes(): number {
    return this.held?.byteLength ?? 0;
  }

  /** Bytes of every quote's JSON held in the file for the corpus served (0 when held in memory or not at all). */
  get filedQuoteBytes(): number {
    return this.held instanceof FiledQuotes ? this.held.filedBytes : 0;
  }

  /**
   * Keeps the summaries of the first ranks (QuoteTexts.preloadSummaries); returns how many. None
   * where the quotes are held (in memory or in a file): pages cut their summaries from those.
   */
  async preloadTopSummaries(goOn: (kept: number) => boolean): Promise<number> {
    const state = await this.corpusState();
    if (this.heldFor(state.version)) return 0;
    return this.texts.preloadSummaries(state.size, state.version, goOn);
  }

  /**
   * Whether the filter's match set would be built from the index rather than found kept: a
   * combination this server has not kept, or any before the corpus is known.
   */
  isNew(filter: ResolvedFilter): boolean {
    if (isUnfiltered(filter)) return false;
    return this.keptVersion === undefined || !this.matchSets.has(`${this.keptVersion}|${matchSetKey(filter)}`);
  }

  /** A random matching quote as the contract's Quote JSON, with its rank; undefined when nothing matches. */
  async randomQuote(
    filter: ResolvedFilter,
    firstAsk: FirstAsk = 'kept-in-free-room',
  ): Promise<{ body: JsonText<Quote>; rank: number } | undefined> {
    return this.onCurrentCorpus(async (state) => {
      const held = this.heldFor(state.version);
      if (held || !isUnfiltered(filter)) {
        const [rank] = await this.drawRanks(filter, state, 1, firstAsk);
        if (rank === undefined) return undefined;
        // A filter's picks fall in its match set, which the quotes kept recently often hold whole;
        // held quotes let go by a reload while this call ran are read there too.
        const quote = held?.quote(rank) ?? (await this.texts.quote(rank, state.version));
        if (!quote) throw new CorpusChanged();
        return { body: storedQuote(quote), rank };
      }
      // Unfiltered picks fall anywhere in the corpus, which no cache holds: drawn ahead.
      const pick = await this.picks.take(state.version, (count) => this.drawRanks(filter, state, count));
      if (pick === 'no-match') return undefined;
      if (pick === 'corpus-changed') throw new CorpusChanged();
      return { body: storedQuote(pick.quote), rank: pick.rank };
    });
  }

  /** `count` independent uniform draws among the filter's matches (none when nothing matches). */
  private async drawRanks(
    filter: ResolvedFilter,
    state: CorpusState,
    count: number,
    firstAsk: FirstAsk = 'kept-in-free-room',
  ): Promise<number[]> {
    const draws = (size: number, member: (k: number) => number) =>
      size === 0 ? [] : Array.from({ length: count }, () => member(Math.floor(this.random() * size)));
    if (isUnfiltered(filter)) return draws(state.size, (k) => k);
    return this.withMatches(filter, state, firstAsk, (matches) =>
      draws(matches.size, (k) => matches.select(k) as number),
    );
  }

  async page(filter: ResolvedFilter, page: PageRequest): Promise<QuotePage> {
    return this.onCurrentCorpus((state) => this.pageOn(state, filter, page));
  }

  /**
   * A page as its answer's body. Asked a second time, a page is kept whole, so a popular page
   * costs one look-up and one write; a page asked once is kept only while the cache is less than
   * half full and `firstAsk` allows it, else built and forgotten, so a flood of one-off pages
   * evicts nothing.
   */
  async pageBody(
    filter: ResolvedFilter,
    page: PageRequest,
    firstAsk: FirstAsk = 'kept-in-free-room',
  ): Promise<PageBody> {
    return this.onCurrentCorpus(async (state) => {
      const key = `${state.version}|${isUnfiltered(filter) ? '' : matchSetKey(filter)}|${page.limit}|${page.offset}`;
      const kept = this.pageBodies.get(key);
      if (kept) return kept;
      const found = await this.pageOn(state, filter, page, firstAsk);
      const built: PageBody = {
        body: quotePageBody(found.items, {
          total: found.total,
          limit: page.limit,
          offset: page.offset,
          has_more: found.hasMore,
        }),
        ranks: found.ranks,
      };
      if (this.pageAsks.keeps(key, firstAsk, this.pageBodies, pageBytes(built))) this.pageBodies.set(key, built);
      return built;
    });
  }

  private async pageOn(
    state: CorpusState,
    filter: ResolvedFilter,
    page: PageRequest,
    firstAsk: FirstAsk = 'kept-in-free-room',
  ): Promise<QuotePage> {
    const cut = (total: number, members: (start: number, count: number) => number[]) => {
      const { start, end, hasMore } = pageWindow(total, page);
      return { total, hasMore, ranks: start < end ? members(start, end - start) : [] };
    };
    const { total, hasMore, ranks } = isUnfiltered(filter)
      ? cut(state.size, (start, count) => Array.from({ length: count }, (_, i) => start + i))
      : await this.withMatches(filter, state, firstAsk, (matches) =>
          cut(matches.size, (start, count) => matches.slice(start, count)),
        );
    if (ranks.length === 0) return { items: [], ranks, total, hasMore };
    // Quotes held (in memory or in a file) answer a page with no statement and nothing more kept.
    const held = this.heldFor(state.version);
    const items = (held && summariesOfQuotes(held.quotes(ranks))) ?? (await this.texts.summaries(ranks, state.version));
    if (!items) throw new CorpusChanged();
    return { items, ranks, total, hasMore };
  }

  /** The FilterValues body and its ETag, computed once per corpus version. */
  async filterValuesBody(): Promise<FilterValuesBody> {
    const state = await this.corpusState();
    if (this.filterValues?.version === state.version) return this.filterValues;
    const { version, counts } = await categoryCounts(this.pool);
    const body = filterValuesBody(counts);
    const etag = filterValuesEtag(body);
    if (version === state.version) this.filterValues = { version, body, etag };
    return { body, etag };
  }

  private async onCurrentCorpus<T>(read: (state: CorpusState) => Promise<T>): Promise<T> {
    try {
      return await read(await this.corpusState());
    } catch (error) {
      if (!(error instanceof CorpusChanged)) throw error;
      // Noticed before the notification arrived: the corpus announced last is the likely one,
      // and its index is used only if its version is the one now served.
      this.invalidate(this.next);
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

  private taxonomyIndex(state: CorpusState): Promise<TaxonomyIndex> {
    const current = this.index;
    if (current) {
      return current.then((index) => {
        if (index.version === state.version) return index;
        // Notifications were off, or a reload landed between two reads: this call's corpus decides.
        if (this.index === current) this.index = undefined;
        return this.taxonomyIndex(state);
      });
    }
    const loading = this.buildIndex('quotes');
    this.index = loading;
    loading.then(
      (index) => {
        if (this.index === loading) this.useHeld(this.heldByIndex.get(index));
        else this.releaseUnused(index);
      },
      () => {
        if (this.index === loading) this.index = undefined;
      },
    );
    return loading.then((index) => {
      if (index.version !== state.version) throw new CorpusChanged();
      return index;
    });
  }

  /**
   * Reads the tag codes a chunk of ranks at a time, so the text PostgreSQL sends (hex, twice the
   * bytes) never holds the whole corpus at once. Of the served corpus, every chunk must come
   * from the version the build started on, or the corpus changed under it; the next corpus is
   * held unchanged by the loader's lock until it is swapped in as `nextVersion`.
   */
  private async buildIndex(table: CorpusTable, nextVersion?: number): Promise<TaxonomyIndex> {
    const state =
      table === 'quotes'
        ? await readCorpusState(this.pool)
        : { version: nextVersion ?? 0, size: await nextCorpusSize(this.pool) };
    const index = TaxonomyIndex.empty(state.version, state.size, this.layout);
    const chunkRanks = this.options.indexChunkRanks ?? indexChunkRanks;
    for (let from = 0; from < state.size; from += chunkRanks) {
      const chunk = await rankTagCodes(this.pool, this.layout, { from, to: from + chunkRanks }, table);
      if (table === 'quotes' && chunk.version !== state.version) throw new CorpusChanged();
      index.add(chunk.pairs);
    }
    await index.pairUp();
    // At most one version's quotes are held: the served one's go before the next one's are read
    // (its picks read PostgreSQL until the swap), so a reload does not hold two corpora at once.
    if (table === 'quotes_next' && this.held) {
      this.useHeld(undefined);
      collectReleased();
    }
    const held = await this.holdQuotes(table, state);
    if (held) this.heldByIndex.set(index, held);
    return index;
  }

  /** Every quote's JSON of `table`, in memory or else in a file, when it fits a bound; read after the index, in the same way. */
  private async holdQuotes(table: CorpusTable, state: CorpusState): Promise<HeldQuotes | FiledQuotes | undefined> {
    const { version, size } = state;
    try {
      return (
        (await HeldQuotes.load(this.pool, table, version, size, this.options.heldQuoteBytes ?? 0)) ??
        (await FiledQuotes.load(this.pool, table, version, size, {
          maxBytes: this.options.quoteFileBytes ?? 0,
          directory: this.options.quoteFileDirectory,
        }))
      );
    } catch (error) {
      throw error instanceof HeldQuotesChanged ? new CorpusChanged() : error;
    }
  }

  /**
   * Reads the filter's match set with `read`, at once. A combination seen before comes from the
   * cache of match sets (or is built and cached, the second time it is asked); one never seen is
   * kept while the cache is less than half full (a start's first calls) and `firstAsk` allows it,
   * else built in the index's reusable buffers and forgotten, so a flood of one-off combinations
   * evicts nothing and, past that half, allocates nothing.
   */
  private async withMatches<T>(
    filter: ResolvedFilter,
    state: CorpusState,
    firstAsk: FirstAsk,
    read: (matches: RankSet) => T,
  ): Promise<T> {
    const cacheKey = `${state.version}|${matchSetKey(filter)}`;
    this.keptVersion = state.version;
    const cached = this.matchSets.get(cacheKey);
    if (cached) {
      this.matchSetCounts.hits++;
      return read(cached);
    }
    this.matchSetCounts.misses++;
    const index = await this.taxonomyIndex(state);
    const built = this.matchSets.get(cacheKey);
    if (built) return read(built);
    if (!this.setAsks.keeps(cacheKey, firstAsk, this.matchSets, index.largestSetBytes + setEntryBytes))
      return read(index.matching(filter, { transient: true }));
    const matches = index.matching(filter);
    this.matchSets.set(cacheKey, matches);
    return read(matches);
  }
}
