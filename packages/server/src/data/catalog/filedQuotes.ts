import { randomUUID } from 'node:crypto';
import { readSync } from 'node:fs';
import { type FileHandle, open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import type { CorpusTable } from './quoteQueries.js';
import { chunkShiftFor, HeldQuotesChanged, readQuoteChunks, startInChunk } from './heldQuotes.js';

/**
 * Ranks per statement: about 90 KB of JSON at 356 bytes a quote, still an ordinary
 * young-generation string (see heldQuotes.ts), in half the statements.
 */
const defaultChunkRanks = 256;

/**
 * How a page's quotes are read: those this close in the file together with the bytes between
 * them, one system call rather than two (about 8 quotes skipped cost less than a second pread),
 * at most `runBytes` a read (a page of 100 adjacent quotes is about 36 KB).
 */
const defaultRuns: QuoteRuns = { nearBytes: 4096, runBytes: 64 << 10 };

export interface QuoteRuns {
  nearBytes: number;
  runBytes: number;
}

/** Where the file is made, and how much of it is allowed. */
export interface QuoteFileOptions {
  maxBytes: number;
  /** The folder the file is created in and at once unlinked from (default: the OS's temporary folder). */
  directory?: string;
  chunkRanks?: number;
  runs?: QuoteRuns;
}

/**
 * Every quote's stored JSON of one corpus version too large to hold in memory (see heldQuotes.ts),
 * written once to a file of this process's own and read back by rank with one pread: a random
 * pick costs a system call instead of a statement, and the bytes live in the kernel's page cache,
 * not in the process. The file is unlinked as soon as it is created, so nothing is left on disk
 * whatever ends the process; in memory stay where each rank's JSON ends (4 bytes a quote) and
 * where each chunk starts (8 bytes a chunk).
 */
export class FiledQuotes {
  private constructor(
    readonly version: number,
    private readonly file: FileHandle,
    private fileBytes: number,
    private readonly chunkStarts: Float64Array,
    private ends: Uint32Array,
    private readonly chunkShift: number,
    private readonly runs: QuoteRuns,
  ) {}

  /** Bytes held in memory: the offsets (the JSON is in the file). */
  get byteLength(): number {
    return this.chunkStarts.byteLength + this.ends.byteLength;
  }

  /** Bytes of JSON in the file. */
  get filedBytes(): number {
    return this.fileBytes;
  }

  /** Closes the file, which frees it: `quote` answers undefined after it. */
  release(): void {
    if (this.ends.length === 0) return;
    this.ends = new Uint32Array(0);
    this.fileBytes = 0;
    void this.file.close().catch(() => undefined);
  }

  /**
   * The Quote JSON at `rank`, read from the file; undefined outside the corpus, once released, or
   * when the read fails (the caller then reads PostgreSQL).
   */
  quote(rank: number): Buffer | undefined {
    const at = this.position(rank);
    return at && this.read(at.start, at.end);
  }

  /**
   * The Quote JSON at each of `ranks` (ascending, as a page's are), read with one pread per run
   * of quotes lying near each other in the file (QuoteRuns; adjacent ranks always do); each answer
   * a view of its run's Buffer. Undefined where `quote` would answer undefined, and for every
   * quote of a run whose read fails.
   */
  quotes(ranks: readonly number[]): (Buffer | undefined)[] {
    const { nearBytes, runBytes } = this.runs;
    const places = ranks.map((rank) => this.position(rank));
    const found: (Buffer | undefined)[] = new Array(ranks.length).fill(undefined);
    let first = 0;
    while (first < places.length) {
      const from = places[first];
      if (from === undefined) {
        first++;
        continue;
      }
      let last = first;
      let to = from.end;
      for (let next = first + 1; next < places.length; next++) {
        const at = places[next];
        if (at === undefined || at.start < to || at.start - to > nearBytes || at.end - from.start > runBytes) break;
        last = next;
        to = at.end;
      }
      const run = this.read(from.start, to);
      if (run)
        for (let index = first; index <= last; index++) {
          const at = places[index] as { start: number; end: number };
          found[index] = run.subarray(at.start - from.start, at.end - from.start);
        }
      first = last + 1;
    }
    return found;
  }

  /** Where the JSON at `rank` lies in the file; undefined outside the corpus or once released. */
  private position(rank: number): { start: number; end: number } | undefined {
    if (!(rank >= 0 && rank < this.ends.length)) return undefined;
    const inChunk = startInChunk(this.ends, this.chunkShift, rank);
    const start = (this.chunkStarts[rank >>> this.chunkShift] as number) + inChunk;
    return { start, end: start + (this.ends[rank] as number) - inChunk };
  }

  /** The file's bytes from `start` to `end`, with one pread; undefined when the read fails or falls short. */
  private read(start: number, end: number): Buffer | undefined {
    const bytes = Buffer.allocUnsafe(end - start);
    try {
      return readSync(this.file.fd, bytes, 0, bytes.length, start) === bytes.length ? bytes : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Reads every quote of `table` (ranks 0..size-1) in chunks into a new unlinked file, or gives
   * up (undefined) when the JSON is seen not to fit `maxBytes` (after the first chunk by its
   * average size, then by what was read) or the file cannot be written (no room, no folder).
   * Of the served corpus every chunk must come from `version` (else HeldQuotesChanged).
   */
  static async load(
    pool: pg.Pool,
    table: CorpusTable,
    version: number,
    size: number,
    options: QuoteFileOptions,
  ): Promise<FiledQuotes | undefined> {
    if (options.maxBytes <= 0 || size === 0) return undefined;
    const chunkShift = chunkShiftFor(options.chunkRanks ?? defaultChunkRanks);
    const file = await createUnlinked(options.directory ?? tmpdir());
    if (!file) return undefined;
    const chunkStarts = new Float64Array(Math.ceil(size / 2 ** chunkShift));
    const ends = new Uint32Array(size);
    const writer = new BatchedWriter(file);
    const corpus = { table, version, size, chunkShift, maxBytes: options.maxBytes };
    let failure: unknown;
    try {
      const read = await readQuoteChunks(pool, corpus, ends, async (bytes, from) => {
        chunkStarts[from >>> chunkShift] = writer.bytes;
        await writer.append(bytes);
        return true;
      });
      if (read) {
        await writer.finish();
        return new FiledQuotes(version, file, writer.bytes, chunkStarts, ends, chunkShift, options.runs ?? defaultRuns);
      }
    } catch (error) {
      failure = error;
    }
    await writer.finish().catch(() => undefined);
    await file.close().catch(() => undefined);
    if (failure instanceof HeldQuotesChanged) throw failure;
    return undefined;
  }
}

/** Bytes gathered before one write: a few hundred writes for a large corpus rather than one per statement. */
const writeBatchBytes = 4 << 20;

/**
 * Appends to a file in batches, one batch written while the next is gathered, so reading the
 * corpus does not wait on each write.
 */
class BatchedWriter {
  /** Bytes appended so far: where the next one lands. */
  bytes = 0;
  private batch: Buffer[] = [];
  private batchBytes = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly file: FileHandle) {}

  async append(bytes: Buffer): Promise<void> {
    this.batch.push(bytes);
    this.batchBytes += bytes.length;
    this.bytes += bytes.length;
    if (this.batchBytes >= writeBatchBytes) await this.writeBatch();
  }

  /** Writes what is gathered and waits for every write; rejects if any failed or fell short. */
  async finish(): Promise<void> {
    await this.writeBatch();
    await this.writing;
  }

  private async writeBatch(): Promise<void> {
    await this.writing;
    if (this.batch.length === 0) return;
    const buffers = this.batch;
    const length = this.batchBytes;
    const position = this.bytes - length;
    this.batch = [];
    this.batchBytes = 0;
    this.writing = this.file.writev(buffers, position).then(({ bytesWritten }) => {
      if (bytesWritten !== length) throw new Error(`short write: ${bytesWritten} of ${length} bytes`);
    });
    this.writing.catch(() => undefined);
  }
}

/** A new file only this process can open, already unlinked; undefined when it cannot be made. */
async function createUnlinked(directory: string): Promise<FileHandle | undefined> {
  const path = join(directory, `quotes-json-${process.pid}-${randomUUID()}`);
  let file: FileHandle;
  try {
    file = await open(path, 'wx+', 0o600);
  } catch {
    return undefined;
  }
  try {
    await unlink(path);
  } catch {
    await file.close().catch(() => undefined);
    return undefined;
  }
  return file;
}
