import type pg from 'pg';
import { layoutDescription, type TagCodeLayout } from './taxonomyIndex.js';

/**
 * Quote reads on the request path, as named prepared statements straight on the pool: they run
 * on every call, so they are parsed and planned once per connection rather than built per call.
 * Each read carries the corpus version it expects and returns nothing when the corpus was
 * replaced meanwhile, so an index built on one corpus is never applied to another.
 */

/**
 * Quotes leave the database already written as the contract's JSON: the quote_json and
 * summary_json columns are generated from each row when it is written (see the migration that
 * adds them), so a quote is read as stored text and kept (see quoteTexts.ts): decoding seven
 * columns per row into objects and serialising them again took the server's CPU under load, and
 * building the JSON per request PostgreSQL's.
 */
export interface CorpusState {
  readonly version: number;
  /** rank is dense, 0..size-1. */
  readonly size: number;
}

const currentVersion = '(SELECT COALESCE(max(version), 0) FROM corpus_state)';

export async function readCorpusState(pool: pg.Pool): Promise<CorpusState> {
  const result = await pool.query<CorpusState>({
    name: 'corpus-state',
    text: `SELECT ${currentVersion} AS version, (SELECT COALESCE(max(rank) + 1, 0) FROM quotes) AS size`,
  });
  const row = result.rows[0];
  return { version: row?.version ?? 0, size: row?.size ?? 0 };
}

const statementByColumn = { quote_json: 'quotes-by-rank', summary_json: 'summaries-by-rank' } as const;

/** One column of JSON at any ranks of corpus `version`, keyed by rank (none when the corpus changed). */
async function jsonByRank(
  pool: pg.Pool,
  column: keyof typeof statementByColumn,
  ranks: readonly number[],
  version: number,
): Promise<Map<number, string>> {
  const result = await pool.query<{ rank: number; json: string }>({
    name: statementByColumn[column],
    text: `SELECT rank, ${column} AS json FROM quotes WHERE rank = ANY($1::int[]) AND ${currentVersion} = $2`,
    values: [ranks, version],
  });
  const byRank = new Map<number, string>();
  for (const { rank, json } of result.rows) byRank.set(rank, json);
  return byRank;
}

/** Full quotes (as JSON) at any ranks, keyed by rank: one statement serves the filtered draws that arrived together. */
export const quotesByRank = (pool: pg.Pool, ranks: readonly number[], version: number) =>
  jsonByRank(pool, 'quote_json', ranks, version);

/** QuoteSummary JSON at any ranks, keyed by rank: the misses of a page, in one statement. */
export const summariesByRank = (pool: pg.Pool, ranks: readonly number[], version: number) =>
  jsonByRank(pool, 'summary_json', ranks, version);

/** Quotes' JSON side by side: the i-th ends at `ends[i]` and starts where the previous one ends. */
export interface JsonRun {
  readonly bytes: Buffer;
  readonly ends: Uint32Array;
}

/** The i-th text of a run, as a view of its bytes. */
export const jsonAt = (run: JsonRun, index: number): Buffer =>
  run.bytes.subarray(index === 0 ? 0 : run.ends[index - 1], run.ends[index]);

/**
 * The Quote JSON at each of `ranks` (repeats allowed), in their order, as one run; undefined
 * when the corpus is no longer `version` or a rank is outside it. The texts arrive concatenated
 * with their lengths as one row: a batch of draws is two values to decode and three objects to
 * keep, not a row and a string each.
 */
export async function quotesInDrawOrder(
  pool: pg.Pool,
  ranks: readonly number[],
  version: number,
): Promise<JsonRun | undefined> {
  const result = await pool.query<{ version: number; count: number; json: string | null; lengths: Buffer | null }>({
    name: 'quotes-in-draw-order',
    text: `SELECT ${currentVersion} AS version, count(*)::int AS count,
                  string_agg(q.quote_json, '' ORDER BY d.ord) AS json,
                  string_agg(int4send(octet_length(q.quote_json)), ''::bytea ORDER BY d.ord) AS lengths
             FROM unnest($1::int[]) WITH ORDINALITY AS d(rank, ord) JOIN quotes q ON q.rank = d.rank`,
    values: [ranks],
  });
  const row = result.rows[0];
  if (!row?.json || !row.lengths || row.version !== version || row.count !== ranks.length) return undefined;
  if (row.lengths.length !== 4 * row.count) return undefined;
  const bytes = Buffer.from(row.json, 'utf8');
  const ends = new Uint32Array(row.count);
  return writeEnds(row.lengths, ends, 0) === bytes.length ? { bytes, ends } : undefined;
}

/**
 * Writes into `ends` from `at` where each text ends, from their lengths as big-endian int32s (as
 * string_agg of int4send gives them), each counted from the start of their run; returns the last end.
 */
export function writeEnds(lengths: Buffer, ends: Uint32Array, at: number): number {
  let end = 0;
  for (let index = 0; index * 4 < lengths.length; index++) {
    end += lengths.readInt32BE(index * 4);
    ends[at + index] = end;
  }
  return end;
}

/** The corpus served, or the next one a loader committed and has not swapped in yet. */
export type CorpusTable = 'quotes' | 'quotes_next';

/**
 * The Quote JSON of every quote whose rank is in [from, to), in rank order, concatenated, with
 * each one's UTF-8 length (big-endian int32s), the row count and the corpus version, in one
 * statement and one snapshot: a chunk of the corpus arrives as two values instead of as rows.
 */
export async function quoteJsonChunk(
  pool: pg.Pool,
  range: { from: number; to: number },
  table: CorpusTable,
): Promise<{ version: number; count: number; json: string; lengths: Buffer }> {
  const result = await pool.query<{ version: number; count: number; json: string | null; lengths: Buffer | null }>(
    `SELECT ${currentVersion} AS version, count(*)::int AS count,
            string_agg(quote_json, '' ORDER BY rank) AS json,
            string_agg(int4send(octet_length(quote_json)), ''::bytea ORDER BY rank) AS lengths
       FROM ${table} WHERE rank >= $1 AND rank < $2`,
    [range.from, range.to],
  );
  const row = result.rows[0];
  return {
    version: row?.version ?? 0,
    count: row?.count ?? 0,
    json: row?.json ?? '',
    lengths: row?.lengths ?? Buffer.alloc(0),
  };
}

/** The number of quotes in the next corpus (see CorpusTable), whose ranks are dense too. */
export async function nextCorpusSize(pool: pg.Pool): Promise<number> {
  const result = await pool.query<{ size: number }>('SELECT COALESCE(max(rank) + 1, 0) AS size FROM quotes_next');
  return result.rows[0]?.size ?? 0;
}

/**
 * The rank and tag code (see taxonomyIndex.ts for the layout) of every quote whose rank is in
 * [from, to), with the corpus version they belong to, in one statement and one snapshot. The
 * pairs travel as one bytea of big-endian int32s: a quarter of a million rows arrive as one
 * value instead of as many rows. No ORDER BY: each pair carries its rank, so the aggregate may
 * run in parallel workers.
 */
export async function rankTagCodes(
  pool: pg.Pool,
  layout: TagCodeLayout,
  range: { from: number; to: number } = { from: 0, to: 2 ** 31 - 1 },
  table: CorpusTable = 'quotes',
): Promise<{ version: number; pairs: Buffer }> {
  const stored = await pool.query<{ layout: string }>('SELECT quote_tag_layout() AS layout');
  const code =
    stored.rows[0]?.layout === layoutDescription(layout) ? { sql: 'tag_code', values: [] } : computedTagCode(layout);
  const from = `$${code.values.length + 1}`;
  const to = `$${code.values.length + 2}`;
  const result = await pool.query<{ version: number; pairs: Buffer | null }>(
    `SELECT ${currentVersion} AS version,
            (SELECT string_agg(int4send(rank) || int4send(${code.sql}), ''::bytea)
               FROM ${table} WHERE rank >= ${from} AND rank < ${to}) AS pairs`,
    [...code.values, range.from, range.to],
  );
  const row = result.rows[0];
  return { version: row?.version ?? 0, pairs: row?.pairs ?? Buffer.alloc(0) };
}

/**
 * The tag code computed from the columns, for when the stored one was written in another
 * layout (the taxonomy changed after the migration that stores it): a pass over every row's
 * moods, about ten times slower than reading the stored codes, and as exact.
 */
export function computedTagCode(layout: TagCodeLayout): { sql: string; values: unknown[] } {
  const values: unknown[] = [];
  const parameter = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const terms = layout.single.map(
    (field) => `(COALESCE(array_position(${parameter(field.values)}::text[], ${field.column}), 0) << ${field.shift})`,
  );
  // Element by element rather than a subquery over unnest(moods): a third cheaper per row. The
  // quotes table allows at most 8 moods per quote.
  const moods = parameter(layout.moods);
  for (let element = 1; element <= Math.max(8, layout.moods.length); element++)
    terms.push(`(COALESCE(1 << (array_position(${moods}::text[], moods[${element}]) - 1), 0) << ${layout.moodsShift})`);
  return { sql: terms.join(' | '), values };
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
