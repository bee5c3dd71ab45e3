import type pg from 'pg';
import type { ResolvedFilter } from '../domain/filterResolution.js';

/**
 * Quote reads on the request path, as named prepared statements straight on the pool: they run
 * on every call, so they are parsed and planned once per connection rather than built per call.
 * Each read carries the corpus version it expects and returns nothing when the corpus was
 * replaced meanwhile, so a cached match set is never applied to a different corpus.
 */

/** The contract's Quote, in its property order. */
export interface QuoteBody {
  id: string;
  text: string;
  author: string;
  category: string;
  secondary_category: string | null;
  mood: string;
  era: string;
  length: string;
  faith_tradition: string | null;
}

/** The contract's QuoteSummary. */
export type QuoteSummaryBody = Pick<QuoteBody, 'id' | 'text' | 'author' | 'category' | 'mood' | 'era' | 'length'>;

export interface CorpusState {
  readonly version: number;
  /** rank is dense, 0..size-1. */
  readonly size: number;
}

const currentVersion = '(SELECT COALESCE(max(version), 0) FROM corpus_state)';
const quoteColumns = `id, text, author, category, secondary_category, array_to_string(moods, ',') AS mood, era, length, faith_tradition`;
const summaryColumns = `id, text, author, category, array_to_string(moods, ',') AS mood, era, length`;

export async function readCorpusState(pool: pg.Pool): Promise<CorpusState> {
  const result = await pool.query<CorpusState>({
    name: 'corpus-state',
    text: `SELECT ${currentVersion} AS version, (SELECT COALESCE(max(rank) + 1, 0) FROM quotes) AS size`,
  });
  const row = result.rows[0];
  return { version: row?.version ?? 0, size: row?.size ?? 0 };
}

/** Full quotes at any ranks, keyed by rank: one statement serves a batch of random draws. */
export async function quotesByRank(pool: pg.Pool, ranks: readonly number[], version: number): Promise<Map<number, QuoteBody>> {
  const result = await pool.query<QuoteBody & { rank: number }>({
    name: 'quotes-by-rank',
    text: `SELECT rank, ${quoteColumns} FROM quotes WHERE rank = ANY($1::int[]) AND ${currentVersion} = $2`,
    values: [ranks, version],
  });
  const quotes = new Map<number, QuoteBody>();
  for (const { rank, ...quote } of result.rows) quotes.set(rank, quote);
  return quotes;
}

/** Quotes at ranks [start, end), in rank order: the unfiltered list's page, an index range scan. */
export async function quotesInRankRange(pool: pg.Pool, start: number, end: number, version: number): Promise<QuoteSummaryBody[]> {
  const result = await pool.query<QuoteSummaryBody>({
    name: 'quotes-in-rank-range',
    text: `SELECT ${summaryColumns} FROM quotes WHERE rank >= $1 AND rank < $2 AND ${currentVersion} = $3 ORDER BY rank`,
    values: [start, end, version],
  });
  return result.rows;
}

export async function quotesAtRanks(pool: pg.Pool, ranks: readonly number[], version: number): Promise<QuoteSummaryBody[]> {
  const result = await pool.query<QuoteSummaryBody>({
    name: 'quotes-at-ranks',
    text: `SELECT ${summaryColumns} FROM quotes WHERE rank = ANY($1::int[]) AND ${currentVersion} = $2 ORDER BY rank`,
    values: [ranks, version],
  });
  return result.rows;
}

/**
 * The ranks of every quote matching the filter, ascending, with the corpus version they belong
 * to (one statement, one snapshot). The ranks travel as one bytea of big-endian int32s: a
 * quarter of a million ranks arrive in one value instead of as many rows.
 */
export async function matchingRanks(pool: pg.Pool, filter: ResolvedFilter): Promise<{ version: number; ranks: Int32Array }> {
  const conditions: string[] = [];
  const values: unknown[] = [];
  const parameter = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (filter.categories) conditions.push(`category = ANY(${parameter(filter.categories)}::text[])`);
  if (filter.moods) conditions.push(`moods && ${parameter(filter.moods)}::text[]`);
  if (filter.length) conditions.push(`length = ${parameter(filter.length)}`);
  if (filter.era) conditions.push(`era = ${parameter(filter.era)}`);
  if (filter.faith) conditions.push(`faith_tradition = ${parameter(filter.faith)}`);
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const result = await pool.query<{ version: number; ranks: Buffer | null }>(
    `SELECT ${currentVersion} AS version,
            (SELECT string_agg(int4send(rank), ''::bytea ORDER BY rank) FROM quotes ${where}) AS ranks`,
    values,
  );
  const row = result.rows[0];
  const bytes = row?.ranks ?? Buffer.alloc(0);
  const ranks = new Int32Array(bytes.length / 4);
  for (let index = 0; index < ranks.length; index++) ranks[index] = bytes.readInt32BE(index * 4);
  return { version: row?.version ?? 0, ranks };
}

/** Quotes per primary category, with the corpus version they were counted in. */
export async function categoryCounts(pool: pg.Pool): Promise<{ version: number; counts: Record<string, number> }> {
  const result = await pool.query<{ version: number; counts: Record<string, number> }>(
    `SELECT ${currentVersion} AS version,
            (SELECT COALESCE(json_object_agg(category, n), '{}'::json)
               FROM (SELECT category, count(*)::int AS n FROM quotes GROUP BY category) AS per_category) AS counts`,
  );
  const row = result.rows[0];
  return { version: row?.version ?? 0, counts: row?.counts ?? {} };
}
