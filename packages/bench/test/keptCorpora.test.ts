import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '@quotes/database';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built module, as the bench runs it (the operator's CLI from its built entry).
const { corpusCodeFingerprint, corpusDatabase, templateName } = (await import(
  new URL('../dist/keptCorpora.js', import.meta.url).href
)) as typeof import('../src/keptCorpora.js');

let directory: string;
let cluster: EmbeddedDatabase;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'quotes-kept-corpora-'));
  cluster = await startEmbeddedPostgres({
    dataDir: join(directory, 'data'),
    persistent: false,
    fast: true,
  });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  await rm(directory, { recursive: true, force: true });
});

async function quoteCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM quotes')).rows[0]?.n);
  } finally {
    await client.end();
  }
}

async function databases(): Promise<string[]> {
  const client = new pg.Client({ connectionString: cluster.adminUrl });
  await client.connect();
  try {
    const result = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'bench%'",
    );
    return result.rows.map((row) => row.datname).sort();
  } finally {
    await client.end();
  }
}

describe('kept corpora', () => {
  it('generates a corpus once and keeps it, then copies it: the same quotes, a fresh database each run', async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const template = templateName(400, 7, await corpusCodeFingerprint());

    const first = await corpusDatabase(cluster.adminUrl, 400, 7, log);
    expect(await quoteCount(first)).toBe(400);
    expect(lines.some((line) => line.startsWith('  generated and loaded in '))).toBe(true);
    expect(await databases()).toEqual(['bench_400', template].sort());

    // Written to between runs (keys, usage): the next run does not see it.
    const client = new pg.Client({ connectionString: first });
    await client.connect();
    await client.query('DELETE FROM quotes WHERE rank < 100');
    await client.end();

    lines.length = 0;
    const second = await corpusDatabase(cluster.adminUrl, 400, 7, log);
    expect(second).toBe(first);
    expect(await quoteCount(second)).toBe(400);
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^  copied the kept corpus ${template} in `))]);
  }, 120_000);

  it('keeps one corpus per size: another seed replaces the kept one of that size only', async () => {
    const fingerprint = await corpusCodeFingerprint();
    await corpusDatabase(cluster.adminUrl, 4000, 7, () => {});
    await corpusDatabase(cluster.adminUrl, 400, 8, () => {});
    expect(await databases()).toEqual(
      ['bench_400', 'bench_4000', templateName(400, 8, fingerprint), templateName(4000, 7, fingerprint)].sort(),
    );
  }, 120_000);
});
