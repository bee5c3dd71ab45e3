import type pg from 'pg';
import { quotesByRank } from './quoteQueries.js';

interface Draw {
  readonly rank: number;
  readonly version: number;
  resolve(quote: string | undefined): void;
  reject(error: unknown): void;
}

/**
 * Random quotes are fetched by rank, one row each. Under load, the draws that arrive while
 * earlier fetches are in flight are fetched together in one statement, so the database sees a
 * few statements per round trip instead of one per call. With no fetch in flight a draw goes
 * out at once: batching adds no wait.
 */
export class RandomDrawBatcher {
  private waiting: Draw[] = [];
  private inFlight = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly maxInFlight = 4,
  ) {}

  /** The quote at `rank` as the contract's JSON, or undefined when the corpus changed. */
  fetch(rank: number, version: number): Promise<string | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ rank, version, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async run(batch: Draw[]): Promise<void> {
    // Draws of one batch almost always share the corpus version; a replacement mid-batch splits it.
    const byVersion = new Map<number, Draw[]>();
    for (const draw of batch) {
      const draws = byVersion.get(draw.version);
      if (draws) draws.push(draw);
      else byVersion.set(draw.version, [draw]);
    }
    await Promise.all(
      [...byVersion].map(async ([version, draws]) => {
        try {
          const quotes = await quotesByRank(this.pool, [...new Set(draws.map((draw) => draw.rank))], version);
          for (const draw of draws) draw.resolve(quotes.get(draw.rank));
        } catch (error) {
          for (const draw of draws) draw.reject(error);
        }
      }),
    );
  }
}
