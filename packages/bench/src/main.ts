import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startMock } from '@quotes/mock';
import { freePort, startEmbeddedPostgres } from '@quotes/server';
import pg from 'pg';
import { runNodeScript, startNodeProcess } from './childProcess.js';
import { type LoadResult, runLoad } from './loadRun.js';
import { peakRssBytes } from './peakRss.js';
import { type BenchReport, markdownReport, type ScenarioMeasurement, svgChart } from './report.js';
import { type Scenario, scenarios } from './scenarios.js';

const { values: options } = parseArgs({
  options: {
    sizes: { type: 'string', default: '150000,1500000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '64' },
    seed: { type: 'string', default: '20261123' },
    out: { type: 'string', default: fileURLToPath(new URL('../results', import.meta.url)) },
  },
});

function positiveInteger(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    process.stderr.write(`bench: --${name} must be a positive whole number, got "${text}"\n`);
    process.exit(2);
  }
  return value;
}

const sizes = (options.sizes ?? '').split(',').map((size) => positiveInteger('sizes', size.trim()));
const durationSeconds = positiveInteger('duration', options.duration);
const warmupSeconds = Number(options.warmup);
const connections = positiveInteger('connections', options.connections);
const seed = positiveInteger('seed', options.seed);

const require = createRequire(import.meta.url);
const serverDist = dirname(require.resolve('@quotes/server'));
const serverMain = join(serverDist, 'main.js');
const adminCli = join(serverDist, 'cli', 'main.js');
const floorScript = fileURLToPath(new URL('./floorApp.js', import.meta.url));

const log = (line: string) => process.stdout.write(`${line}\n`);

async function answers(url: string): Promise<boolean> {
  const response = await fetch(url);
  return response.status < 500;
}

async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function createKey(databaseUrl: string, plan: string): Promise<string> {
  const output = await runNodeScript(
    adminCli,
    ['keys', 'create', '--client', `bench ${plan}`, '--plan', plan, '--json'],
    { DATABASE_URL: databaseUrl },
  );
  return (JSON.parse(output) as { key: string }).key;
}

/** A category + mood (+ era) combination whose matching set is large enough for offset 500 to land inside it. */
async function pickFilteredPaths(baseUrl: string, key: string): Promise<{ list: string; random: string }> {
  // `parent` matches two categories (Family & Parenting, Parenting & Children): over 550 quotes at 150,000.
  const candidates = [
    ['parent', 'reflective', 'contemporary'],
    ['parent', 'reflective', 'modern'],
    ['life', 'reflective', 'modern'],
    ['love', 'uplifting', 'contemporary'],
    ['wisdom', 'reflective', 'ancient'],
    ['hope', 'inspirational', 'modern'],
    ['grief', 'poignant', 'contemporary'],
  ];
  let best = { total: -1, list: '', random: '' };
  for (const [category, mood, era] of candidates) {
    const list = `/v1/quotes-filter?category=${category}&mood=${mood}&era=${era}&limit=50&offset=500`;
    const response = await fetch(`${baseUrl}${list}`, { headers: { 'X-API-Key': key } });
    const body = (await response.json()) as { total?: number };
    const total = body.total ?? 0;
    if (total > best.total) best = { total, list, random: `/v1/quotes-random?category=${category}&mood=${mood}` };
    if (total >= 550) break;
  }
  log(`  filtered scenario: ${best.list} (${best.total} matching)`);
  return best;
}

async function measure(
  targets: Record<'server' | 'floor' | 'mock', { base: string; headers: Record<string, string> }>,
  scenario: Scenario,
  order: Array<'server' | 'floor' | 'mock'>,
): Promise<Record<'server' | 'floor' | 'mock', LoadResult>> {
  const results = {} as Record<'server' | 'floor' | 'mock', LoadResult>;
  // Interleaved, in a rotating order, so machine drift hits all three alike.
  for (const name of order) {
    const target = targets[name];
    results[name] = await runLoad({
      url: `${target.base}${scenario.path}`,
      headers: target.headers,
      connections,
      durationSeconds,
      warmupSeconds,
    });
    log(
      `  ${scenario.id.padEnd(16)} ${name.padEnd(6)} ${Math.round(results[name].requestsPerSecond)} req/s, p99 ${results[name].latencyP99Ms} ms, errors ${results[name].errors}`,
    );
  }
  return results;
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  log(`bench: sizes ${sizes.join(', ')}; ${connections} connections; ${durationSeconds} s per run; ${machine}`);

  const cluster = process.env.DATABASE_URL
    ? null
    : await startEmbeddedPostgres({
        dataDir: join(await mkdtemp(join(tmpdir(), 'quotes-bench-pg-')), 'data'),
        port: await freePort(),
        persistent: false,
      });
  const adminUrl = process.env.DATABASE_URL ?? cluster?.adminUrl ?? '';
  const floorPort = await freePort();
  const floor = await startNodeProcess(floorScript, [], { PORT: String(floorPort) }, () =>
    answers(`http://127.0.0.1:${floorPort}/v1/quotes-random`),
  );
  const mock = await startMock({ port: 0 });
  const report: BenchReport = { startedAt, machine, connections, durationSeconds, measurements: [], peakRss: {} };
  try {
    for (const size of sizes) {
      log(`corpus ${size.toLocaleString('en-US')}: preparing`);
      const databaseUrl = await freshDatabase(adminUrl, `bench_${size}`);
      const env = { DATABASE_URL: databaseUrl };
      await runNodeScript(adminCli, ['db', 'migrate'], env);
      const began = Date.now();
      await runNodeScript(adminCli, ['corpus', 'generate', '--size', String(size), '--seed', String(seed)], env);
      log(`  generated and loaded in ${((Date.now() - began) / 1000).toFixed(1)} s`);
      const platformKey = await createKey(databaseUrl, 'platform');
      const serverPort = await freePort();
      const server = await startNodeProcess(
        serverMain,
        [],
        { ...env, PORT: String(serverPort), LOG_LEVEL: 'warn' },
        () => answers(`http://127.0.0.1:${serverPort}/readyz`),
      );
      try {
        const serverBase = `http://127.0.0.1:${serverPort}`;
        const filtered = await pickFilteredPaths(serverBase, platformKey);
        const targets = {
          server: { base: serverBase, headers: { 'X-API-Key': platformKey } },
          floor: { base: `http://127.0.0.1:${floorPort}`, headers: {} },
          mock: { base: mock.url, headers: { 'X-API-Key': 'qk_mock' } },
        };
        const rotations: Array<Array<'server' | 'floor' | 'mock'>> = [
          ['server', 'floor', 'mock'],
          ['floor', 'mock', 'server'],
          ['mock', 'server', 'floor'],
        ];
        const all = scenarios(filtered.list, filtered.random);
        for (const [index, scenario] of all.entries()) {
          const results = await measure(
            targets,
            scenario,
            rotations[index % rotations.length] ?? ['server', 'floor', 'mock'],
          );
          report.measurements.push({
            corpusSize: size,
            keyPlan: 'platform',
            scenario,
            ...results,
          } satisfies ScenarioMeasurement);
        }
        // Counting on the path: a capped (professional) key, run by amount so it stays within its allowance.
        const professionalKey = await createKey(databaseUrl, 'professional');
        const scenario = all[0] as Scenario;
        const [counted, floorResult, mockResult] = [
          await runLoad({
            url: `${serverBase}${scenario.path}`,
            headers: { 'X-API-Key': professionalKey },
            connections,
            durationSeconds,
            warmupSeconds: 0,
            amount: 45_000,
          }),
          await runLoad({
            url: `${targets.floor.base}${scenario.path}`,
            connections,
            durationSeconds,
            warmupSeconds: 0,
            amount: 45_000,
          }),
          await runLoad({
            url: `${mock.url}${scenario.path}`,
            headers: targets.mock.headers,
            connections,
            durationSeconds,
            warmupSeconds: 0,
            amount: 45_000,
          }),
        ];
        log(
          `  random (professional key, counted) ${Math.round(counted.requestsPerSecond)} req/s, errors ${counted.errors}`,
        );
        report.measurements.push({
          corpusSize: size,
          keyPlan: 'professional',
          scenario,
          server: counted,
          floor: floorResult,
          mock: mockResult,
        });
      } finally {
        // Read before stopping: the high-water mark goes with the process.
        report.peakRss[size] = await peakRssBytes(server.pid);
        await server.stop();
      }
    }
  } finally {
    await floor.stop();
    await mock.stop();
    await cluster?.stop();
  }
  const out = options.out ?? 'results';
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'latest.md'), markdownReport(report));
  await writeFile(join(out, 'latest.svg'), svgChart(report));
  await writeFile(join(out, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  log(`\n${markdownReport(report)}`);
  log(`bench: wrote ${join(out, 'latest.md')}, latest.svg and latest.json`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
