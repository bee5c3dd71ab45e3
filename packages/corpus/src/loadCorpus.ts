import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { taxonomy } from '@quotes/contract';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { corpusChangedChannel, type DatabaseHandle } from '@quotes/database';
import { type CorpusRow, problemWithRow } from './corpusRow.js';
import { CorpusError, CorpusValidationError } from './errors.js';
import { announceNextCorpus, type PreparedServers } from './nextCorpusAnnouncement.js';
import { quoteId } from './quoteId.js';

export type CorpusRows = Iterable<CorpusRow> | AsyncIterable<CorpusRow>;

export interface CorpusMeta {
  /** Where the corpus came from, shown by `corpus stats` ('generated', 'import quotes.jsonl'). */
  source: string;
  /** The generator seed, or null for imported data. */
  seed?: number | null;
}

export type LoadPhase = 'copy' | 'build' | 'index' | 'analyze' | 'prepare' | 'swap' | 'vacuum';

export interface LoadProgress {
  phase: LoadPhase;
  /** Rows streamed into the staging table so far (the copy phase reports it as it goes). */
  rows: number;
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

// The COPY text format escapes exactly these four characters.
const copyEscapes: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const needsCopyEscape = /[\\\n\r\t]/;
function copyText(value: string): string {
  return needsCopyEscape.test(value) ? value.replace(/[\\\n\r\t]/g, (c) => copyEscapes[c]!) : value;
}

function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

const chunkCharacters = 256 * 1024;
const progressEvery = 10_000;

/** Validates each row, gives it its id and turns the stream into COPY text chunks. */
async function* copyChunks(
  rows: CorpusRows,
  counter: { rows: number },
  onProgress?: (progress: LoadProgress) => void,
): AsyncGenerator<string> {
  let chunk = '';
  for await (const row of rows) {
    const problem = problemWithRow(row);
    if (problem) throw new CorpusValidationError(`row ${counter.rows + 1}: ${problem}`);
    const fields = [
      String(counter.rows),
      row.id ?? quoteId(row.text, row.author),
      row.id === undefined ? 'f' : 't',
      copyText(row.text),
      copyText(row.author),
      copyText(row.category),
      row.secondary_category === null ? '\\N' : copyText(row.secondary_category),
      copyText(arrayLiteral(row.moods)),
      copyText(row.era),
      row.faith_tradition === null ? '\\N' : copyText(row.faith_tradition),
      String(row.score),
    ];
    chunk += `${fields.join('\t')}\n`;
    counter.rows++;
    if (chunk.length >= chunkCharacters) {
      yield chunk;
      chunk = '';
    }
    if (onProgress && counter.rows % progressEvery === 0) onProgress({ phase: 'copy', rows: counter.rows });
  }
  if (chunk) yield chunk;
}

interface IndexOfQuotes {
  name: string;
  definition: string;
  constraintType: 'p' | 'u' | null;
}

async function indexesOfQuotes(client: pg.Client): Promise<IndexOfQuotes[]> {
  const result = await client.query<{ name: string; definition: string; contype: string | null }>(`
    SELECT index_class.relname AS name, pg_get_indexdef(i.indexrelid) AS definition, c.contype
    FROM pg_index i
    JOIN pg_class index_class ON index_class.oid = i.indexrelid
    LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid
    WHERE i.indrelid = 'quotes'::regclass
    ORDER BY index_class.relname`);
  return result.rows.map((row) => {
    if (row.contype !== null && row.contype !== 'p' && row.contype !== 'u') {
      throw new CorpusError(
        `quotes index ${row.name} backs a constraint of type '${row.contype}', which the loader cannot rebuild`,
      );
    }
    return { name: row.name, definition: row.definition, constraintType: row.contype as 'p' | 'u' | null };
  });
}

const stagedName = (name: string) => `${name}_next`;

/** The same index, on quotes_next under a temporary name (the old table still holds the real one). */
function indexOnNextTable(index: IndexOfQuotes): string {
  const match = /^(CREATE (?:UNIQUE )?INDEX )(\S+)( ON (?:ONLY )?)((?:\S+\.)?)quotes( USING .*)$/s.exec(
    index.definition,
  );
  if (!match)
    throw new CorpusError(`cannot rebuild quotes index ${index.name}: unexpected definition ${index.definition}`);
  return `${match[1]}${stagedName(index.name)}${match[3]}${match[4]}quotes_next${match[5]}`;
}

async function countsByCategory(client: pg.Client, sqlText: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = Object.fromEntries(taxonomy.categories.map((category) => [category, 0]));
  const result = await client.query<{ category: string; count: number }>(sqlText);
  for (const row of result.rows) counts[row.category] = Number(row.count);
  return counts;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const lockNotAvailable = '55P03';

/**
 * Swaps quotes_next in for quotes. The exclusive lock is held only for these few catalogue
 * statements. It is first tried without waiting, so readers never queue behind the swap; if the
 * table is never free (a steady stream of readers, autovacuum), it waits for at most
 * `lockTimeoutMs` at a time, rolling back to the savepoint and retrying after each timeout, so a
 * slow reader never turns into a failed load.
 */
async function swapTables(client: pg.Client, indexes: IndexOfQuotes[], lockTimeoutMs: number): Promise<void> {
  const immediateAttempts = 10;
  for (let attempt = 1; ; attempt++) {
    await client.query('SAVEPOINT swap');
    try {
      if (attempt <= immediateAttempts) {
        await client.query('LOCK TABLE quotes, quotes_next IN ACCESS EXCLUSIVE MODE NOWAIT');
      } else {
        await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`);
        await client.query('LOCK TABLE quotes, quotes_next IN ACCESS EXCLUSIVE MODE');
        await client.query('SET LOCAL lock_timeout = 0');
      }
      await client.query('DROP TABLE quotes');
      await client.query('ALTER TABLE quotes_next RENAME TO quotes');
      // Renaming an index that backs a constraint renames the constraint too.
      for (const index of indexes) await client.query(`ALTER INDEX ${stagedName(index.name)} RENAME TO ${index.name}`);
      await client.query('RELEASE SAVEPOINT swap');
      return;
    } catch (error) {
      await client.query('ROLLBACK TO SAVEPOINT swap');
      if ((error as { code?: string }).code !== lockNotAvailable || attempt >= immediateAttempts + 30) throw error;
      await sleep(attempt <= immediateAttempts ? 100 : Math.min(2000, 250 * (attempt - immediateAttempts)));
    }
  }
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
