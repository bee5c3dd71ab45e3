import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CorpusRow, corpusStats, ensureDefaultCorpus, generateCorpus, replaceCorpus } from '../src/index.js';
import { corpusChangedChannel, corpusListenerName, corpusNextChannel, corpusPreparedChannel } from '@quotes/database';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

/** A connection of its own to the test database for `use`, closed after it. */
async function withConnection<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const oldSize = 2000;
let oldIds: string[];
let oldVersion: number;

async function snapshot() {
  const ids = (await database.db.selectFrom('quotes').select('id').orderBy('rank').execute()).map((row) => row.id);
  const stats = await corpusStats(database);
  return { ids, version: stats.state?.version, total: stats.total };
}

async function leftovers(): Promise<string[]> {
  const result = await sql<{ relname: string }>`
    SELECT relname FROM pg_class WHERE relname LIKE 'quotes_next%' OR relname LIKE 'corpus_staging%'`.execute(
    database.db,
  );
  return result.rows.map((row) => row.relname);
}

async function expectOldCorpusIntact() {
  const now = await snapshot();
  expect(now.version).toBe(oldVersion);
  expect(now.total).toBe(oldSize);
  expect(now.ids).toEqual(oldIds);
  expect(await leftovers()).toEqual([]);
  // Still queryable through its indexes, as the service reads it.
  const grief = await database.db
    .selectFrom('quotes')
    .select('id')
    .where('category', '=', 'Grief & Loss')
    .orderBy('rank')
    .limit(5)
    .execute();
  expect(grief.length).toBe(5);
}

beforeEach(async () => {
  await replaceCorpus(database, generateCorpus({ size: oldSize, seed: 1 }), { source: 'generated', seed: 1 });
  ({ ids: oldIds, version: oldVersion } = (await snapshot()) as { ids: string[]; version: number });
});

/** Rows from the generator that stop with an error after `count` rows, like a file that breaks midway. */
async function* failingAfter(count: number): AsyncGenerator<CorpusRow> {
  let produced = 0;
  for (const row of generateCorpus({ size: count * 2, seed: 2 })) {
    if (produced++ === count) throw new Error('disk read error in the middle of the file');
    yield row;
  }
}

describe('replaceCorpus is atomic', () => {
  it('leaves the old corpus intact when the row stream fails midway', async () => {
    await expect(replaceCorpus(database, failingAfter(5000), { source: 'broken' })).rejects.toThrow(
      'disk read error in the middle of the file',
    );
    await expectOldCorpusIntact();
  });

  it('leaves the old corpus intact when the importing process is killed during the COPY', async () => {
    const script = fileURLToPath(new URL('./support/killableLoad.ts', import.meta.url));
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script, database.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/copy 30000/.test(output)) resolve();
      });
      child.on('exit', () => reject(new Error(`the child ended before copying: ${stderr}`)));
    });
    // Mid-COPY: the service still answers from the old corpus.
    const count = await database.db
      .selectFrom('quotes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(oldSize);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    // The server notices the dead connection and rolls its transaction back.
    for (let waited = 0; waited < 10_000; waited += 100) {
      const busy = await sql<{
        n: number;
      }>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'COPY corpus_staging%'`.execute(
        database.db,
      );
      if (Number(busy.rows[0]?.n) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await expectOldCorpusIntact();
    // And the load lock died with it: the next load goes through.
    const report = await replaceCorpus(database, generateCorpus({ size: 500, seed: 3 }), {
      source: 'after the kill',
      seed: 3,
    });
    expect(report).toMatchObject({ total: 500, version: oldVersion + 1 });
  });

  it('keeps answering from the old corpus while a load is in progress', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let paused!: () => void;
    const reachedGate = new Promise<void>((resolve) => {
      paused = resolve;
    });
    async function* slowRows(): AsyncGenerator<CorpusRow> {
      let produced = 0;
      for (const row of generateCorpus({ size: 3000, seed: 4 })) {
        if (produced++ === 1500) {
          paused();
          await gate;
        }
        yield row;
      }
    }
    const load = replaceCorpus(database, slowRows(), { source: 'slow', seed: 4 });
    await reachedGate;
    expect((await snapshot()).ids).toEqual(oldIds);
    release();
    expect(await load).toMatchObject({ total: 3000, version: oldVersion + 1 });
    expect((await snapshot()).ids).not.toEqual(oldIds);
  });

  it('waits for a long reader before swapping, retrying instead of failing', async () => {
    await withConnection(async (reader) => {
      await reader.query('BEGIN');
      const before = await reader.query('SELECT count(*)::int AS n FROM quotes');
      const load = replaceCorpus(
        database,
        generateCorpus({ size: 800, seed: 6 }),
        { source: 'waiting' },
        { swapLockTimeoutMs: 100 },
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      // The reader's transaction still sees the old corpus, unchanged by the pending load.
      expect((await reader.query('SELECT count(*)::int AS n FROM quotes')).rows[0].n).toBe(before.rows[0].n);
      await reader.query('COMMIT');
      expect(await load).toMatchObject({ total: 800, version: oldVersion + 1 });
    });
  });

  it('keeps the service\u2019s named prepared statements working across the swap', async () => {
    await withConnection(async (client) => {
      const statement = {
        name: 'by-rank',
        text: "SELECT id, array_to_string(moods, ',') AS mood, length FROM quotes WHERE rank = $1",
        values: [0],
      };
      expect((await client.query(statement)).rows[0].id).toBe(oldIds[0]);
      await replaceCorpus(database, generateCorpus({ size: 400, seed: 10 }), {
        source: 'swap under a prepared statement',
      });
      const after = await client.query(statement);
      const first = await database.db.selectFrom('quotes').select('id').where('rank', '=', 0).executeTakeFirstOrThrow();
      expect(after.rows[0].id).toBe(first.id);
      expect(after.rows[0].id).not.toBe(oldIds[0]);
    });
  });

  it('notifies listeners with the new version, in the swap transaction', async () => {
    await withConnection(async (listener) => {
      const notified = new Promise<pg.Notification>((resolve) => listener.on('notification', resolve));
      await listener.query(`LISTEN ${corpusChangedChannel}`);
      const report = await replaceCorpus(database, generateCorpus({ size: 300, seed: 7 }), { source: 'notify' });
      const notification = await notified;
      expect(notification).toMatchObject({ channel: corpusChangedChannel, payload: String(report.version) });
    });
  });
});

describe('a reload announced before its swap', () => {
  /** A stand-in for a server's notification connection: found by its name, answering after `answerAfterMs` (never when null). */
  async function listeningServer(answerAfterMs: number | null) {
    const client = new pg.Client({ connectionString: database.url, application_name: corpusListenerName });
    await client.connect();
    const seen: { announced: string; servedVersion: number; nextSize: number }[] = [];
    client.on('notification', (message) => {
      if (message.channel !== corpusNextChannel) return;
      void (async () => {
        const served = await client.query<{ v: number }>('SELECT max(version) AS v FROM corpus_state');
        const next = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM quotes_next');
        seen.push({ announced: message.payload ?? '', servedVersion: served.rows[0]!.v, nextSize: next.rows[0]!.n });
        if (answerAfterMs === null) return;
        await new Promise((resolve) => setTimeout(resolve, answerAfterMs));
        await client.query('SELECT pg_notify($1, $2)', [corpusPreparedChannel, message.payload]);
      })();
    });
    await client.query(`LISTEN ${corpusNextChannel}`);
    return { seen, stop: () => client.end() };
  }

  it('commits the new table under its own name and swaps only once every listening server answered', async () => {
    const server = await listeningServer(300);
    try {
      const report = await replaceCorpus(database, generateCorpus({ size: 700, seed: 11 }), { source: 'announced' });
      expect(report.servers).toEqual({ listening: 1, answered: 1 });
      // While the server indexed it, the old corpus was still the one served.
      expect(server.seen).toEqual([{ announced: String(report.version), servedVersion: oldVersion, nextSize: 700 }]);
      expect(report.phaseSeconds.prepare).toBeGreaterThanOrEqual(0.3);
      expect((await snapshot()).version).toBe(report.version);
      expect(await leftovers()).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('swaps at its deadline when a server does not answer', async () => {
    const server = await listeningServer(null);
    try {
      const report = await replaceCorpus(
        database,
        generateCorpus({ size: 700, seed: 12 }),
        { source: 'silent' },
        {
          prepareDeadlineMs: 400,
        },
      );
      expect(report.servers).toEqual({ listening: 1, answered: 0 });
      expect(report.phaseSeconds.prepare).toBeGreaterThanOrEqual(0.4);
      expect(report.phaseSeconds.prepare).toBeLessThan(3);
      expect((await snapshot()).total).toBe(700);
    } finally {
      await server.stop();
    }
  });

  it('does not wait for anyone when no server listens', async () => {
    const report = await replaceCorpus(database, generateCorpus({ size: 700, seed: 13 }), { source: 'alone' });
    expect(report.servers).toEqual({ listening: 0, answered: 0 });
    expect(report.phaseSeconds.prepare).toBeLessThan(0.5);
  });

  it('replaces a next table left by a load killed between its two transactions', async () => {
    await sql`CREATE TABLE quotes_next (LIKE quotes INCLUDING ALL)`.execute(database.db);
    const report = await replaceCorpus(database, generateCorpus({ size: 500, seed: 14 }), { source: 'after a kill' });
    expect(report.total).toBe(500);
    expect((await snapshot()).total).toBe(500);
    expect(await leftovers()).toEqual([]);
  });
});

describe('ensureDefaultCorpus', () => {
  it('loads the generated corpus into an empty table, and only then', async () => {
    await sql`DELETE FROM quotes`.execute(database.db);
    const lines: string[] = [];
    expect(await ensureDefaultCorpus(database, { size: 1500, seed: 8, log: (line) => lines.push(line) })).toBe(true);
    const stats = await corpusStats(database);
    expect(stats.total).toBe(1500);
    expect(stats.state).toMatchObject({ source: 'generated', seed: 8, size: 1500 });
    expect(lines.join('\n')).toMatch(/loaded 1,500 quotes/);
    expect(await ensureDefaultCorpus(database, { size: 1500, seed: 9 })).toBe(false);
    expect((await corpusStats(database)).state?.seed).toBe(8);
  });
});
