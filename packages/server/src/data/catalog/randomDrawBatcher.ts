import type pg from 'pg';
import { quotesByRank } from './quoteQueries.js';
import { StatementRounds } from '@quotes/database';

interface Draw {
  readonly rank: number;
  readonly version: number;
}

/**
 * Random quotes are fetched by rank, one row each. Under load, the draws that arrive while
 * earlier fetches are in flight are fetched together in one statement, so the database sees a
 * few statements per round trip instead of one per call. With no fetch in flight a draw goes
 * out at once: batching adds no wait.
 */
export class RandomDrawBatcher {
  private readonly rounds: StatementRounds<Draw, string | undefined>;

  constructor(pool: pg.Pool, maxInFlight = 4) {
    this.rounds = new StatementRounds({ roundsAtOnce: maxInFlight, run: (round) => fetchRound(pool, round) });
  }

  /** The quote at `rank` as the contract's JSON, or undefined when the corpus changed. */
  fetch(rank: number, version: number): Promise<string | undefined> {
    return this.rounds.ask(`${version}|${rank}`, { rank, version });
  }
}

/** One statement per corpus version in the round; a failed one fails only its own draws. */
async function fetchRound(
  pool: pg.Pool,
  round: ReadonlyArray<{ readonly item: Draw }>,
): Promise<(lane: { readonly item: Draw }) => string | undefined> {
  // Draws of one round almost always share the corpus version; a replacement mid-round splits it.
  const ranksByVersion = new Map<number, number[]>();
  for (const { item } of round) {
    const ranks = ranksByVersion.get(item.version);
    if (ranks) ranks.push(item.rank);
    else ranksByVersion.set(item.version, [item.rank]);
  }
  const fetched = new Map<number, Map<number, string> | { failure: unknown }>();
  await Promise.all(
    [...ranksByVersion].map(async ([version, ranks]) => {
      try {
        fetched.set(version, await quotesByRank(pool, ranks, version));
      } catch (failure) {
        fetched.set(version, { failure });
      }
    }),
  );
  return ({ item }) => {
    const quotes = fetched.get(item.version);
    if (!(quotes instanceof Map)) throw quotes?.failure;
    return quotes.get(item.rank);
  };
}
