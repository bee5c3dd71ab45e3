import type pg from 'pg';
import { type JsonRun, jsonAt, quotesInDrawOrder } from './quoteQueries.js';

/** A random quote drawn ahead: its rank and its Quote JSON (a view of its batch's bytes). */
export interface RandomPick {
  readonly rank: number;
  readonly quote: Buffer;
}

/** Ranks drawn uniformly, with replacement, from the corpus; empty when it holds nothing. */
export type DrawRanks = (count: number) => Promise<number[]>;

/** One statement's draws: no object per pick until it is handed out. */
interface Batch {
  readonly ranks: Int32Array;
  readonly json: JsonRun;
  next: number;
}

/** The draws of one corpus version. */
interface DrawPool {
  readonly version: number;
  readonly batches: Batch[];
  /** Draws fetched per statement: doubled on each refill up to the bound, so a quiet server costs one row a call. */
  size: number;
  refill: Promise<'drawn' | 'no-match' | 'corpus-changed'> | undefined;
}

const left = (pool: DrawPool) => pool.batches.reduce((sum, batch) => sum + batch.ranks.length - batch.next, 0);

/**
 * Unfiltered random quotes of a corpus whose JSON is not held (see heldQuotes.ts), drawn ahead:
 * each draw is an independent uniform pick made before it is asked for and handed out once, in
 * the order drawn, so what a caller receives is distributed exactly as a pick made on arrival.
 * Draws are fetched in one statement, in batches that double with use (1, 2, 4, ... `maxBatch`),
 * and from the second batch on the next is fetched while a whole batch is still left, so a busy
 * server costs a fraction of a statement per call and its callers rarely wait. A batch is kept as
 * its bytes, their offsets and the ranks, so picks waiting their turn are not heap objects for the
 * collector to copy. The draws belong to one corpus version: those of another are dropped.
 */
export class RandomPicks {
  private current: DrawPool | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly maxBatch = 256,
  ) {}

  /** The next pick of corpus `version`. */
  async take(version: number, draw: DrawRanks): Promise<RandomPick | 'no-match' | 'corpus-changed'> {
    let pool = this.current;
    if (!pool || pool.version !== version) {
      pool = { version, batches: [], size: 1, refill: undefined };
      this.current = pool;
    }
    for (;;) {
      const batch = pool.batches[0];
      if (batch) {
        const index = batch.next++;
        if (batch.next === batch.ranks.length) pool.batches.shift();
        // Ahead only once asked again: a server asked once costs the one row it needs.
        if (pool.size > 2 && left(pool) <= pool.size) void this.refill(pool, draw).catch(() => undefined);
        return { rank: batch.ranks[index] as number, quote: jsonAt(batch.json, index) };
      }
      const outcome = await this.refill(pool, draw);
      if (outcome !== 'drawn') {
        if (this.current === pool) this.current = undefined;
        return outcome;
      }
    }
  }

  /** Drops every draw. */
  forget(): void {
    this.current = undefined;
  }

  /** Draws and fetches the next batch, queued after the picks left; one at a time. */
  private refill(pool: DrawPool, draw: DrawRanks): Promise<'drawn' | 'no-match' | 'corpus-changed'> {
    if (pool.refill) return pool.refill;
    const count = pool.size;
    pool.size = Math.min(this.maxBatch, pool.size * 2);
    const refill = (async () => {
      const ranks = await draw(count);
      if (ranks.length === 0) return 'no-match' as const;
      const json = await quotesInDrawOrder(this.pool, ranks, pool.version);
      if (!json) return 'corpus-changed' as const;
      pool.batches.push({ ranks: Int32Array.from(ranks), json, next: 0 });
      return 'drawn' as const;
    })();
    pool.refill = refill;
    const clear = () => {
      if (pool.refill === refill) pool.refill = undefined;
    };
    refill.then(clear, clear);
    return refill;
  }
}
