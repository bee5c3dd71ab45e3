import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { taxonomy } from '@quotes/contract';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { corpusChangedChannel, type DatabaseHandle } from '@quotes/database';
import { CorpusError } from './errors.js';
import { announceNextCorpus, type PreparedServers } from './nextCorpusAnnouncement.js';
import { type CorpusRows, copyChunks, type LoadPhase, type LoadProgress } from './corpusCopy.js';

export type { CorpusRows, LoadPhase, LoadProgress } from './corpusCopy.js';
import { indexesOfQuotes, indexOnNextTable, stagedName, swapTables } from './tableSwap.js';

export interface CorpusMeta {
  /** Where the corpus came from, shown by `corpus stats` ('generated', 'import quotes.jsonl'). */
  source: string;
  /** The generator seed, or null for imported data. */
  seed?: number | null;
}

/** The loaded corpus as corpus_state describes it, before or after a load. */
export interface CorpusStateRow {
  version: number;
  source: string;
  seed: number | null;
  size: number;
  loaded_at: string;
}

type StoredCorpusState = Omit<CorpusStateRow, 'loaded_at'> & { loaded_at: Date };

/** The swap a load is about to commit: its session, for writes that must commit with it, and the corpus before and after. */
export interface CorpusSwap {
  /** The loader's connection, inside the swap's transaction. */
  client: pg.ClientBase;
  before: CorpusStateRow | null;
  after: CorpusStateRow;
}

export interface LoadOptions {
  onProgress?: (progress: LoadProgress) => void;
  /**
   * Runs in the swap's transaction, just before it commits (the operator's audit entry): when it
   * throws, the load is undone and the corpus stays as it was.
   */
  beforeCommit?: (swap: CorpusSwap) => Promise<void>;
  /**
   * How long each blocking attempt of the final swap may wait for running readers before it
   * backs off and retries (default 2 s). While it waits, new readers queue behind it, so this
   * bounds their delay; it must exceed deadlock_timeout (1 s) for autovacuum to yield.
   */
  swapLockTimeoutMs?: number;
  /**
   * How long the loader waits, between committing the new table and swapping it in, for the
   * listening servers to build their index from it (default 10 s; see nextCorpusAnnouncement.ts).
   */
  prepareDeadlineMs?: number;
}

export interface CorpusLoadReport {
  mode: 'replace' | 'append';
  source: string;
  seed: number | null;
  /** Rows received from the stream (after the caller's own validation). */
  received: number;
  /** Quotes that were not in the corpus before and are now. */
  imported: number;
  /** Rows dropped because the same quote (same id) came earlier or, on append, already existed. */
  duplicates: number;
  /** On append, quotes replaced by a row that brought their id (a corrected row of a review file). */
  corrected: number;
  /** Quotes in the corpus after the load. */
  total: number;
  /** corpus_state.version after the load. */
  version: number;
  /** Imported quotes per primary category (every taxonomy category, 0 when none). */
  byCategory: Record<string, number>;
  seconds: number;
  /** The servers that were listening, and how many had their index ready before the swap. */
  servers: PreparedServers;
  /** Seconds spent per phase, for the timings in the README. */
  phaseSeconds: Partial<Record<LoadPhase, number>>;
}

// One load at a time per database: a session advisory lock, held from before the new table is
// built until after it is swapped in (two transactions), released however the load ends
// (unlocked, or the connection dying with a killed process).
const loadLockKey = 0x51_75_6f_74; // 'Quot'

const stagingColumns =
  'seq, id, corrects, text, author, category, secondary_category, moods, era, faith_tradition, score';
const quoteColumns = 'id, text, author, category, secondary_category, moods, era, faith_tradition, score';

async function countsByCategory(client: pg.Client, sqlText: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = Object.fromEntries(taxonomy.categories.map((category) => [category, 0]));
  const result = await client.query<{ category: string; count: number }>(sqlText);
  for (const row of result.rows) counts[row.category] = Number(row.count);
  return counts;
}

async function loadCorpus(
  { mode, onlyIfEmpty }: LoadKind,
  handle: DatabaseHandle,
  rows: CorpusRows,
  meta: CorpusMeta,
  options: LoadOptions = {},
): Promise<CorpusLoadReport | null> {
  const started = performance.now();
  const phaseSeconds: Partial<Record<LoadPhase, number>> = {};
  let phaseStarted = started;
  const endPhase = (phase: LoadPhase) => {
    const now = performance.now();
    phaseSeconds[phase] = (now - phaseStarted) / 1000;
    phaseStarted = now;
  };
  const counter = { rows: 0 };
  const progress = (phase: LoadPhase) => options.onProgress?.({ phase, rows: counter.rows });

  // A connection of its own: the temporary staging table and session settings never leak into
  // the pool, and if this process dies the server sees the socket close and rolls back. Direct,
  // never through a transaction pooler: the session spans transactions.
  const client = new pg.Client({ connectionString: handle.directUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(`SET temp_buffers = '128MB'`);
    await client.query('SELECT pg_advisory_lock($1)', [loadLockKey]);
    // Left by a load that was killed between its two transactions.
    await client.query('DROP TABLE IF EXISTS quotes_next');
    await client.query('BEGIN');
    await client.query(`SET LOCAL work_mem = '256MB'`);
    await client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
    if (onlyIfEmpty) {
      const existing = await client.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM quotes) AS any');
      if (existing.rows[0]?.any) {
        await client.query('ROLLBACK');
        return null;
      }
    }

    await client.query(`
      CREATE TEMP TABLE corpus_staging (
        seq bigint NOT NULL, id text NOT NULL, corrects boolean NOT NULL, text text NOT NULL, author text NOT NULL,
        category text NOT NULL, secondary_category text, moods text[] NOT NULL, era text NOT NULL,
        faith_tradition text, score real NOT NULL
      ) ON COMMIT DROP`);
    progress('copy');
    const copy = client.query(copyFrom(`COPY corpus_staging (${stagingColumns}) FROM STDIN`));
    await pipeline(Readable.from(copyChunks(rows, counter, options.onProgress)), copy);
    endPhase('copy');

    progress('build');
    const before =
      mode === 'append'
        ? Number((await client.query<{ n: number }>('SELECT count(*) AS n FROM quotes')).rows[0]?.n ?? 0)
        : 0;
    // Everything but the indexes: building them after the bulk insert is several times faster.
    await client.query('CREATE TABLE quotes_next (LIKE quotes INCLUDING ALL EXCLUDING INDEXES)');
    // First occurrence wins among duplicates; on append the quote already served wins, unless the
    // row brought the quote's id: that is a correction (a review file re-imported), and it wins.
    const corrected =
      mode === 'append'
        ? Number(
            (
              await client.query<{ n: number }>(
                'SELECT count(DISTINCT s.id) AS n FROM corpus_staging s JOIN quotes q ON q.id = s.id WHERE s.corrects',
              )
            ).rows[0]?.n ?? 0,
          )
        : 0;
    const fresh = `
      SELECT DISTINCT ON (s.id) ${quoteColumns
        .split(', ')
        .map((column) => `s.${column}`)
        .join(', ')}
      FROM corpus_staging s
      ${mode === 'append' ? 'WHERE s.corrects OR NOT EXISTS (SELECT 1 FROM quotes q WHERE q.id = s.id)' : ''}
      ORDER BY s.id, s.corrects DESC, s.seq`;
    const kept =
      corrected > 0
        ? `SELECT ${quoteColumns} FROM quotes q WHERE NOT EXISTS (SELECT 1 FROM corpus_staging s WHERE s.corrects AND s.id = q.id)`
        : `SELECT ${quoteColumns} FROM quotes`;
    const union = mode === 'append' ? `${kept} UNION ALL (${fresh})` : fresh;
    // COLLATE "C": ids order by code point whatever the database locale, like a JavaScript sort.
    const inserted = await client.query(`
      INSERT INTO quotes_next (rank, ${quoteColumns})
      SELECT (row_number() OVER (ORDER BY score DESC, id COLLATE "C") - 1)::integer, ${quoteColumns}
      FROM (${union}) AS corpus`);
    const total = inserted.rowCount ?? 0;
    const imported = total - before;
    if (imported === 0 && mode === 'replace') throw new CorpusError('no quotes to load: the corpus is unchanged');
    const byCategory = await countsByCategory(
      client,
      mode === 'append'
        ? 'SELECT n.category, count(*) AS count FROM quotes_next n WHERE NOT EXISTS (SELECT 1 FROM quotes q WHERE q.id = n.id) GROUP BY n.category'
        : 'SELECT category, count(*) AS count FROM quotes_next GROUP BY category',
    );
    endPhase('build');

    progress('index');
    const indexes = await indexesOfQuotes(client);
    for (const index of indexes) {
      await client.query(indexOnNextTable(index));
      if (index.constraintType) {
        const kind = index.constraintType === 'p' ? 'PRIMARY KEY' : 'UNIQUE';
        await client.query(
          `ALTER TABLE quotes_next ADD CONSTRAINT ${stagedName(index.name)} ${kind} USING INDEX ${stagedName(index.name)}`,
        );
      }
    }
    endPhase('index');

    progress('analyze');
    await client.query('ANALYZE quotes_next');
    const nextVersion = Number(
      (await client.query<{ v: number }>('SELECT COALESCE(max(version), 0) + 1 AS v FROM corpus_state')).rows[0]?.v,
    );
    // Committed under its own name, so the servers can read it before it is swapped in; the
    // lock keeps it unchanged until then.
    await client.query('COMMIT');
    endPhase('analyze');

    progress('prepare');
    const servers = await announceNextCorpus(client, nextVersion, options.prepareDeadlineMs ?? 10_000);
    endPhase('prepare');

    progress('swap');
    await client.query('BEGIN');
    await swapTables(client, indexes, options.swapLockTimeoutMs ?? 2000);
    const stateColumns = 'version, source, seed, size, loaded_at';
    const previous = await client.query<StoredCorpusState>(`SELECT ${stateColumns} FROM corpus_state`);
    const state = await client.query<StoredCorpusState>(
      `INSERT INTO corpus_state AS state (id, version, source, seed, size, loaded_at)
       VALUES (1, 1, $1, $2, $3, now())
       ON CONFLICT (id) DO UPDATE SET
         version = state.version + 1,
         source = CASE WHEN $4 THEN state.source || ' + ' || $1 ELSE $1 END,
         seed = CASE WHEN $4 THEN state.seed ELSE $2 END,
         size = $3,
         loaded_at = now()
       RETURNING ${stateColumns}`,
      [meta.source, meta.seed ?? null, total, mode === 'append'],
    );
    const version = state.rows[0]!.version;
    if (version !== nextVersion) throw new CorpusError(`corpus version ${version}, announced as ${nextVersion}`);
    await client.query('SELECT pg_notify($1, $2)', [corpusChangedChannel, String(version)]);
    const row = (found: StoredCorpusState | undefined) =>
      found ? { ...found, loaded_at: found.loaded_at.toISOString() } : null;
    await options.beforeCommit?.({
      client,
      before: row(previous.rows[0]),
      after: row(state.rows[0])!,
    });
    await client.query('COMMIT');
    endPhase('swap');

    // Outside the transaction (VACUUM cannot run in one), once the new corpus is live: it sets
    // the visibility map, so the service's counts can be index-only scans at once, and leaves
    // autovacuum nothing to do on the fresh table. Readers are not blocked by it; a failure
    // here costs only that head start, so the load still succeeds.
    progress('vacuum');
    await client.query('VACUUM quotes').catch(() => undefined);
    endPhase('vacuum');

    return {
      mode,
      source: state.rows[0]!.source,
      seed: state.rows[0]!.seed,
      received: counter.rows,
      imported,
      duplicates: counter.rows - imported - corrected,
      corrected,
      total,
      version,
      byCategory,
      servers,
      seconds: (performance.now() - started) / 1000,
      phaseSeconds,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.query('DROP TABLE IF EXISTS quotes_next').catch(() => undefined);
    throw error;
  } finally {
    await client.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

interface LoadKind {
  mode: 'replace' | 'append';
  /** Load only when the quotes table is empty, checked under the load lock (start-up races). */
  onlyIfEmpty: boolean;
}

type CorpusLoader<Report> = (
  handle: DatabaseHandle,
  rows: CorpusRows,
  meta: CorpusMeta,
  options?: LoadOptions,
) => Promise<Report>;

/**
 * Replaces the whole corpus with `rows`, atomically: they are streamed with COPY into a staging
 * table, de-duplicated by id, ranked and indexed in a new table that is swapped in at the end.
 * Readers keep the old corpus until that swap; any failure (or the process being killed) before
 * it leaves the old corpus untouched.
 */
export const replaceCorpus = loadCorpus.bind(null, {
  mode: 'replace',
  onlyIfEmpty: false,
}) as CorpusLoader<CorpusLoadReport>;

/** Adds `rows` to the corpus with the same guarantees; ranks are recomputed over the union. */
export const appendCorpus = loadCorpus.bind(null, {
  mode: 'append',
  onlyIfEmpty: false,
}) as CorpusLoader<CorpusLoadReport>;

/** replaceCorpus, unless the corpus already has quotes by the time the load lock is held (null then). */
export const replaceEmptyCorpus: CorpusLoader<CorpusLoadReport | null> = loadCorpus.bind(null, {
  mode: 'replace',
  onlyIfEmpty: true,
});
