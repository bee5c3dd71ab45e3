// Measures generate + load on a throwaway embedded PostgreSQL (durable settings, like the
// server's), for CORPUS.md: `npx tsx test/support/measureLoad.ts 1500000`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { corpusStats, generateCorpus, replaceCorpus } from '../../src/index.js';
import { connectDatabase } from '@quotes/database';
import { startEmbeddedPostgres } from '@quotes/database';
import { migrateToLatest } from '@quotes/database';

const size = Number(process.argv[2] ?? 150_000);
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
const megabytes = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;

const root = await mkdtemp(join(tmpdir(), 'corpus-measure-'));
const cluster = await startEmbeddedPostgres({ dataDir: join(root, 'data'), persistent: false });
const admin = new pg.Client({ connectionString: cluster.adminUrl });
await admin.connect();
await admin.query('CREATE DATABASE measure');
await admin.end();
const handle = connectDatabase(cluster.urlFor('measure'));
try {
  await migrateToLatest(handle.db);
  for (const [round, label] of [
    [1, 'into an empty database'],
    [2, 'replacing the first load'],
  ] as const) {
    peakRss = 0;
    const started = performance.now();
    const report = await replaceCorpus(handle, generateCorpus({ size, seed: 20261123 + round }), {
      source: 'generated',
      seed: 20261123 + round,
    });
    const seconds = (performance.now() - started) / 1000;
    const phases = Object.entries(report.phaseSeconds)
      .map(([phase, value]) => `${phase} ${value.toFixed(1)} s`)
      .join(', ');
    console.log(
      `${size.toLocaleString('en-US')} quotes ${label}: ${seconds.toFixed(1)} s (${phases}); peak RSS of this process ${megabytes(peakRss)}`,
    );
  }
  const stats = await corpusStats(handle);
  const tableSize = await handle.pool.query<{ size: string }>(
    "SELECT pg_size_pretty(pg_total_relation_size('quotes')) AS size",
  );
  console.log(`quotes table with indexes: ${tableSize.rows[0]?.size}; lengths ${JSON.stringify(stats.byLength)}`);
} finally {
  clearInterval(sampler);
  await handle.close();
  await cluster.stop();
  await rm(root, { recursive: true, force: true });
}
