import type pg from 'pg';
import { type CorpusTable, quoteJsonChunk, writeEnds } from './quoteQueries.js';

/**
 * Ranks per statement and per Buffer: about 45 KB of JSON at 356 bytes a quote, so the text each
 * statement brings into the heap is an ordinary young-generation string, gone at the next
 * scavenge; a larger one lands in V8's large-object space, where it stays until a full collection.
 */
const defaultChunkRanks = 128;

/**
 * Statements in flight while the quotes are read: PostgreSQL aggregates the next chunks while
 * this process decodes and keeps the last one.
 */
const chunkStatementsAtOnce = 3;

/** The corpus changed while its quotes were being read. */
export class HeldQuotesChanged extends Error {}

/**
 * Every quote's stored JSON (the contract's Quote) of one corpus version, by rank: one Buffer
 * per chunk of ranks and one array of end offsets, outside V8's heap, so a random pick costs no
 * statement and no object beyond the view it answers with. Held only when the corpus's JSON fits
 * a byte bound (see QUOTE_READS.md); the bytes never change once loaded.
 */
export class HeldQuotes {
  private constructor(
    readonly version: number,
    private chunks: readonly Buffer[],
    /** Where each rank's JSON ends in its chunk; it starts where the previous rank's ends. */
    private ends: Uint32Array,
    private readonly chunkShift: number,
  ) {}

  /** Bytes held: the JSON and the offsets. */
  get byteLength(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.length, 0) + this.ends.byteLength;
  }

  /** Lets the bytes go (views already answered keep theirs): `quote` answers undefined after it. */
  release(): void {
    this.chunks = [];
    this.ends = new Uint32Array(0);
  }

  /** The Quote JSON at `rank`, as a view of the held bytes; undefined outside the corpus or once released. */
  quote(rank: number): Buffer | undefined {
    if (!(rank >= 0 && rank < this.ends.length)) return undefined;
    const chunk = this.chunks[rank >>> this.chunkShift] as Buffer;
    return chunk.subarray(startInChunk(this.ends, this.chunkShift, rank), this.ends[rank]);
  }

  /** The Quote JSON at each of `ranks`, as `quote` answers them. */
  quotes(ranks: readonly number[]): (Buffer | undefined)[] {
    return ranks.map((rank) => this.quote(rank));
  }

  /**
   * Reads every quote of `table` (ranks 0..size-1) in chunks, or gives up (undefined) as soon as
   * the JSON is seen not to fit `maxBytes`: after the first chunk by its average size, then by
   * what was read. Of the served corpus every chunk must come from `version` (else
   * HeldQuotesChanged); the next one is held unchanged by the loader until it is swapped in.
   */
  static async load(
    pool: pg.Pool,
    table: CorpusTable,
    version: number,
    size: number,
    maxBytes: number,
    chunkRanks = defaultChunkRanks,
  ): Promise<HeldQuotes | undefined> {
    if (maxBytes <= 0) return undefined;
    const chunkShift = chunkShiftFor(chunkRanks);
    const chunks: Buffer[] = [];
    const ends = new Uint32Array(size);
    const read = await readQuoteChunks(pool, { table, version, size, chunkShift, maxBytes }, ends, (bytes) => {
      chunks.push(bytes);
      return true;
    });
    return read ? new HeldQuotes(version, chunks, ends, chunkShift) : undefined;
  }
}

/** Ranks per chunk as a power of two, at least 2, so a rank's chunk is a shift. */
export const chunkShiftFor = (chunkRanks: number) => Math.ceil(Math.log2(Math.max(2, chunkRanks)));

/** Where `rank`'s JSON starts in its chunk of 2^chunkShift ranks, given where each rank's ends. */
export const startInChunk = (ends: Uint32Array, chunkShift: number, rank: number): number =>
  (rank & ((1 << chunkShift) - 1)) === 0 ? 0 : (ends[rank - 1] as number);

/** Which corpus to read, in chunks of 2^chunkShift ranks, and the most JSON it may total. */
export interface QuoteChunkRead {
  table: CorpusTable;
  version: number;
  size: number;
  chunkShift: number;
  maxBytes: number;
}

/**
 * Reads every quote's JSON of `corpus` in rank order, a chunk per statement, writing into `ends`
 * where each rank's JSON ends in its chunk and handing each chunk's bytes, with its first rank, to
 * `take`. Stops (false) when `take` does, or as soon as the JSON is seen not to fit
 * `corpus.maxBytes`: after the first chunk by its average size, then by what was read. Of the served corpus every chunk must come from
 * `version` (else HeldQuotesChanged); the next one is held unchanged by the loader until it is
 * swapped in.
 */
export async function readQuoteChunks(
  pool: pg.Pool,
  corpus: QuoteChunkRead,
  ends: Uint32Array,
  take: (bytes: Buffer, from: number) => boolean | Promise<boolean>,
): Promise<boolean> {
  const perChunk = 2 ** corpus.chunkShift;
  const ask = (from: number) => {
    const asked = quoteJsonChunk(pool, { from, to: Math.min(corpus.size, from + perChunk) }, corpus.table);
    // Awaited in order below; one left behind by an early return must not reject unhandled.
    asked.catch(() => undefined);
    return asked;
  };
  const asked: ReturnType<typeof ask>[] = [];
  let next = 0;
  const askNext = () => {
    if (next < corpus.size) asked.push(ask(next));
    next += perChunk;
  };
  for (let lane = 0; lane < chunkStatementsAtOnce; lane++) askNext();
  let total = 0;
  for (let from = 0; from < corpus.size; from += perChunk) {
    const chunk = await (asked.shift() as ReturnType<typeof ask>);
    askNext();
    const count = Math.min(corpus.size, from + perChunk) - from;
    if (corpus.table === 'quotes' && chunk.version !== corpus.version) throw new HeldQuotesChanged();
    if (chunk.count !== count || chunk.lengths.length !== 4 * chunk.count) throw new HeldQuotesChanged();
    const bytes = Buffer.from(chunk.json, 'utf8');
    if (writeEnds(chunk.lengths, ends, from) !== bytes.length) throw new HeldQuotesChanged();
    total += bytes.length;
    if (total > corpus.maxBytes || (from === 0 && (total / count) * corpus.size > corpus.maxBytes)) return false;
    if (!(await take(bytes, from))) return false;
  }
  return true;
}
