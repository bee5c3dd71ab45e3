import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAdmin } from './adminCommands.js';
import { withClient } from './benchDatabase.js';

/**
 * Generated corpora kept between runs as template databases (`CREATE DATABASE ... TEMPLATE`): a
 * run copies the kept one (seconds) instead of generating and loading it again (at 1,500,000
 * quotes, minutes). A template is named by size, seed and a fingerprint of the code that made
 * it (the corpus generator and loader, the database's migrations), so a change to either makes a
 * new one and the stale ones of that size are dropped.
 */

/** Every file under `directory`, as path and bytes, in a stable order. */
async function filesUnder(directory: string): Promise<Array<{ path: string; bytes: Buffer }>> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.map'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  return Promise.all(files.map(async (path) => ({ path: path.slice(directory.length), bytes: await readFile(path) })));
}

/** The built code a corpus database depends on, hashed: the corpus package's and the database package's. */
export async function corpusCodeFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  for (const name of ['@quotes/corpus', '@quotes/database']) {
    const entry = fileURLToPath(import.meta.resolve(name));
    const dist = entry.slice(0, entry.lastIndexOf('/dist/') + '/dist'.length);
    for (const file of await filesUnder(dist)) hash.update(file.path).update('\0').update(file.bytes).update('\0');
  }
  return hash.digest('hex').slice(0, 10);
}

export function templateName(size: number, seed: number, fingerprint: string): string {
  return `bench_corpus_${size}_${seed}_${fingerprint}`;
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * `bench_<size>`, holding the corpus of `size` quotes generated with `seed` and the schema
 * migrated: copied from the kept template, or made (migrated, generated, loaded) and then kept.
 */
export async function corpusDatabase(
  adminUrl: string,
  size: number,
  seed: number,
  log: (line: string) => void,
): Promise<string> {
  const name = `bench_${size}`;
  const template = templateName(size, seed, await corpusCodeFingerprint());
  const url = databaseUrl(adminUrl, name);
  const kept = await withClient(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${name}`);
      return false;
    }
    const began = Date.now();
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    log(`  copied the kept corpus ${template} in ${((Date.now() - began) / 1000).toFixed(1)} s`);
    return true;
  });
  // A kept corpus was migrated by the same code (its fingerprint's).
  if (kept) return url;
  const env = { DATABASE_URL: url };
  await runAdmin(env, ['db', 'migrate']);
  const began = Date.now();
  await runAdmin(env, ['corpus', 'generate', '--size', String(size), '--seed', String(seed)]);
  log(`  generated and loaded in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  await withClient(adminUrl, async (client) => {
    const stale = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND datname <> $2',
      [`bench_corpus_${size}_`, template],
    );
    for (const { datname } of stale.rows) await client.query(`DROP DATABASE IF EXISTS ${datname}`);
    // The load's connections may linger a moment; a template is copied with nobody on it.
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    const copying = Date.now();
    await client.query(`CREATE DATABASE ${template} TEMPLATE ${name}`);
    log(`  kept as ${template} in ${((Date.now() - copying) / 1000).toFixed(1)} s`);
  });
  return url;
}
