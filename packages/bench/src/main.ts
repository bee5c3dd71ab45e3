import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startMock } from '@quotes/mock';
import { startScript } from '@quotes/cluster';
import { freePort, startEmbeddedPostgres } from '@quotes/database';
import pg from 'pg';
import { captureAnswers, writeAnswers } from './answerCapture.js';
import { type RunningProcess, runNodeScript, runningChildren, startNodeProcess } from './childProcess.js';
import { CostMeter } from './callCosts.js';
import { measureHistoryMemory } from './historyMemory.js';
import { measureIndex } from './indexMicro.js';
import { sampleLatenciesApart } from './latencyRun.js';
import { type LoadResult, runLoad } from './loadRun.js';
import { mixedTraffic, neverSeenCombinations } from './mixedTraffic.js';
import { peakRssBytes } from './peakRss.js';
import { type BenchReport, type ColdMeasurement, markdownReport, svgChart } from './report.js';
import { quoteResults } from './readmeQuotes.js';
import { measureRoutes } from './routeRun.js';
import { mixedScenario, type Scenario, scenarios } from './scenarios.js';

/** Where a default run writes: the results the READMEs quote. */
const committedResults = fileURLToPath(new URL('../results', import.meta.url));

const { values: options } = parseArgs({
  options: {
    sizes: { type: 'string', default: '150000,1500000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '64' },
    seed: { type: 'string', default: '20261123' },
    'mixed-urls': { type: 'string', default: '2000' },
    'cold-calls': { type: 'string', default: '200' },
    'counted-calls': { type: 'string', default: '45000' },
    'route-scenarios': { type: 'string', default: 'random,categories' },
    'server-node-options': { type: 'string', default: '' },
    out: { type: 'string', default: committedResults },
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
const mixedUrls = positiveInteger('mixed-urls', options['mixed-urls']);
const coldCalls = positiveInteger('cold-calls', options['cold-calls']);
const countedCalls = positiveInteger('counted-calls', options['counted-calls']);
/** The scenarios measured over every route (one key, history off, through HAProxy). */
const routeScenarioIds = new Set((options['route-scenarios'] ?? '').split(',').map((id) => id.trim()));
/** Connections of the key whose latency the bystander figure watches, and of the key flooding beside it. */
const bystanderConnections = 2;
const floodConnections = 32;
/**
 * Never-seen calls in flight at once for the cold figures: one client (the latency of a call on a
 * quiet machine, which the target is about), then four at once (a burst, not a load test).
 */
const coldClients = [1, 4] as const;

const require = createRequire(import.meta.url);
const serverMain = require.resolve('@quotes/server/main');
const adminCli = join(dirname(require.resolve('@quotes/operator/package.json')), 'dist', 'cli', 'main.js');
/** The server runs as `npm start` runs it: with the environment and Node options of its start script. */
const serverStart = startScript();
const serverNodeOptions = [
  ...serverStart.nodeFlags,
  // More, for a look inside (`--cpu-prof --cpu-prof-dir=DIR` profiles every server process the bench starts).
  ...(options['server-node-options'] ?? '').split(/\s+/).filter((option) => option !== ''),
];
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

/**
 * A checkpoint after the corpus is loaded, so the measurements do not share the disk with the
 * load's dirty pages being written out (at 1,500,000 quotes about 1.5 GB, spread by PostgreSQL
 * over the following minutes), then the corpus read into PostgreSQL's buffers (pg_prewarm). Each
 * needs rights a DATABASE_URL may lack (a superuser or pg_checkpoint; creating the extension):
 * without them the run goes on, and says so.
 */
async function settleWrites(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const began = Date.now();
    await client.query('CHECKPOINT');
    log(`  checkpoint after the load: ${((Date.now() - began) / 1000).toFixed(1)} s`);
  } catch (error) {
    log(
      `  no CHECKPOINT after the load (${error instanceof Error ? error.message : String(error)}): its writes may overlap the measurements`,
    );
  }
  // A bulk load passes through a small ring of buffers, so the table starts out of PostgreSQL's
  // cache; a database serving the corpus has it read in. Warmed here, the runs do not depend on
  // which scenario happens to read it first.
  try {
    const began = Date.now();
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
    const result = await client.query<{ blocks: number }>(
      "SELECT (pg_prewarm('quotes') + pg_prewarm('quotes_rank_key'))::int AS blocks",
    );
    log(
      `  ${result.rows[0]?.blocks ?? 0} blocks of the corpus read into PostgreSQL's buffers in ${((Date.now() - began) / 1000).toFixed(1)} s`,
    );
  } catch (error) {
    log(
      `  the corpus not read into PostgreSQL's buffers (${error instanceof Error ? error.message : String(error)}): the first scenarios read it from the kernel's cache`,
    );
  } finally {
    await client.end();
  }
}

/**
 * Bench keys are enterprise keys (no burst limit; the plan's own allowance, if any, as
 * `monthlyCalls`): the bench measures what the server can do, not the plans' calls per second.
 */
async function createKey(databaseUrl: string, plan: string, monthlyCalls?: number): Promise<string> {
  const limit = monthlyCalls === undefined ? ['--unlimited'] : ['--monthly-calls', String(monthlyCalls)];
  const output = await runNodeScript(
    adminCli,
    ['keys', 'create', '--client', `bench ${plan}`, '--plan', 'enterprise', ...limit, '--json'],
    { DATABASE_URL: databaseUrl },
  );
  return (JSON.parse(output) as { key: string }).key;
}

/**
 * The throughput scenarios' traffic comes from this many keys in turn, as a public API's does:
 * one key alone would measure the per-key bound on calls at once (8 per server process, see the
 * server's README) instead of the server.
 */
const trafficKeys = 16;

async function createKeys(databaseUrl: string, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let index = 0; index < count; index++) keys.push(await createKey(databaseUrl, 'platform'));
  return keys;
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

type Target = 'server' | 'floor' | 'mock';
type Targets = Record<Target, { base: string; headers: Record<string, string>; keys?: string[] }>;

async function measure(
  targets: Targets,
  scenario: Scenario,
  order: Target[],
  paths: string[] = [scenario.path],
  warmupPaths?: string[],
): Promise<{ server: LoadResult; floor: LoadResult; mock?: LoadResult }> {
  const results: Partial<Record<Target, LoadResult>> = {};
  // Interleaved, in a rotating order, so machine drift hits all of them alike.
  for (const name of order) {
    const target = targets[name];
    const result = await runLoad({
      origin: target.base,
      paths,
      headers: target.headers,
      keys: target.keys,
      connections,
      durationSeconds,
      warmupSeconds,
      warmupPaths,
      notFoundExpected: scenario.id === 'mixed',
    });
    results[name] = result;
    log(
      `  ${scenario.id.padEnd(16)} ${name.padEnd(6)} ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latencyP99Ms} ms, errors ${result.errors}`,
    );
  }
  const { server, floor, mock } = results;
  if (!server || !floor) throw new Error(`${scenario.id}: the server and the floor must both be measured`);
  return { server, floor, mock };
}

function startServerProcess(env: NodeJS.ProcessEnv): Promise<{ process: RunningProcess; base: string }> {
  return freePort().then(async (port) => ({
    process: await startNodeProcess(
      serverMain,
      [],
      { ...serverStart.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
      () => answers(`http://127.0.0.1:${port}/readyz`),
      120_000,
      serverNodeOptions,
    ),
    base: `http://127.0.0.1:${port}`,
  }));
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
  const mock = await startMock({ port: 0 });
  // Stopped by a signal: the children and the throwaway cluster go too, not left running.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      for (const child of runningChildren) child.kill('SIGTERM');
      void Promise.allSettled([mock.stop(), cluster?.stop()]).finally(() => process.exit(130));
    });
  const report: BenchReport = {
    startedAt,
    machine,
    connections,
    durationSeconds,
    measurements: [],
    peakRss: {},
    cold: [],
    bystander: [],
    counting: [],
    index: [],
    routes: [],
    routeNotes: [],
    countedCosts: [],
  };
  try {
    for (const size of sizes) {
      log(`index micro-measurement at ${size.toLocaleString('en-US')} quotes`);
      const micro = await measureIndex(size, seed);
      log(`  bitsets ${micro.bitsetMicros} µs per filter, Roaring ${micro.roaringMicros} µs`);
      report.index.push(micro);
    }
    report.historyMemory = await measureHistoryMemory();
    log(
      `usage history in memory: ${report.historyMemory.ordinaryBytesPerKey} bytes per ordinary key, ${report.historyMemory.boundBytesPerKey} at the bound`,
    );
    for (const size of sizes) {
      log(`corpus ${size.toLocaleString('en-US')}: preparing`);
      const databaseUrl = await freshDatabase(adminUrl, `bench_${size}`);
      const env = { DATABASE_URL: databaseUrl };
      await runNodeScript(adminCli, ['db', 'migrate'], env);
      const began = Date.now();
      await runNodeScript(adminCli, ['corpus', 'generate', '--size', String(size), '--seed', String(seed)], env);
      log(`  generated and loaded in ${((Date.now() - began) / 1000).toFixed(1)} s`);
      await settleWrites(databaseUrl);
      const platformKeys = await createKeys(databaseUrl, trafficKeys);
      const platformKey = platformKeys[0] as string;
      const floodKey = await createKey(databaseUrl, 'platform');
      const traffic = mixedTraffic(seed + size, mixedUrls, mixedUrls * 10);
      // Each list is asked of a server that has not seen it: a fresh process, or a reloaded corpus.
      const coldAfterStart = neverSeenCombinations(seed + 1, coldCalls);
      const coldAfterReload = neverSeenCombinations(seed + 2, coldCalls);
      const flood = neverSeenCombinations(seed + 3, 5000);

      // 1. Capture: what the server answers each URL with, from a server that is then stopped,
      // so the measured one has seen none of the mixed traffic.
      const capturing = await startServerProcess(env);
      let all: Scenario[];
      const answersFile = join(await mkdtemp(join(tmpdir(), 'quotes-bench-answers-')), 'answers.json');
      try {
        const filtered = await pickFilteredPaths(capturing.base, platformKey);
        all = scenarios(filtered.list, filtered.random);
        const captured = await captureAnswers(
          capturing.base,
          [...all.map((scenario) => scenario.path), ...traffic.distinct],
          { 'X-API-Key': platformKey },
        );
        await writeAnswers(answersFile, captured);
        const statuses = Object.values(captured).reduce<Record<number, number>>((counts, answer) => {
          counts[answer.status] = (counts[answer.status] ?? 0) + 1;
          return counts;
        }, {});
        log(`  captured ${Object.keys(captured).length} answers (${JSON.stringify(statuses)})`);
      } finally {
        await capturing.process.stop();
      }
      const floorPort = await freePort();
      const floor = await startNodeProcess(
        floorScript,
        [],
        { PORT: String(floorPort), CAPTURED_ANSWERS: answersFile },
        () => answers(`http://127.0.0.1:${floorPort}/v1/quotes-usage`),
      );
      const platform = { 'X-API-Key': platformKey };
      const cold = async (base: string, moment: ColdMeasurement['moment'], paths: string[], clients: number) => {
        const sample = await sampleLatenciesApart({ origin: base, paths, headers: platform, concurrency: clients });
        log(
          `  cold, ${moment}, ${clients} at a time: p50 ${sample.p50Ms} ms, p99 ${sample.p99Ms} ms, max ${sample.maxMs} ms over ${sample.count}`,
        );
        report.cold.push({ corpusSize: size, moment, clients, ...sample });
      };
      // 2. Cold, right after start: never-seen combinations, then the same calls again (now seen:
      // what the machine gives any call at that concurrency). Each client count meets a server
      // process just started: all but the last are stopped after their figures, and the last
      // goes on to serve the rest of the run.
      const afterStart = async (base: string, clients: number) => {
        await cold(base, 'after start', coldAfterStart, clients);
        await cold(base, 'the same calls again', coldAfterStart, clients);
      };
      for (const clients of coldClients.slice(0, -1)) {
        const fresh = await startServerProcess(env);
        try {
          await afterStart(fresh.base, clients);
        } finally {
          await fresh.process.stop();
        }
      }
      const server = await startServerProcess(env);
      let meter: CostMeter | undefined;
      try {
        meter = await CostMeter.open(databaseUrl);
        await afterStart(server.base, coldClients[coldClients.length - 1] ?? 1);
        const targets: Targets = {
          server: { base: server.base, headers: {}, keys: platformKeys },
          floor: { base: `http://127.0.0.1:${floorPort}`, headers: {} },
          mock: { base: mock.url, headers: { 'X-API-Key': 'qk_mock' } },
        };

        // 3. Mixed traffic, the server first so its URLs are unseen when it meets them; the
        // warm-up touches no combination of it.
        const mixed = mixedScenario(traffic.distinct.length, traffic.sequence.length);
        const mixedResults = await measure(targets, mixed, ['server', 'floor'], traffic.sequence, [
          '/v1/quotes-random',
        ]);
        report.measurements.push({ corpusSize: size, keyPlan: 'platform', scenario: mixed, ...mixedResults });

        // 4. One URL per scenario, against the same-bytes floor and the mock.
        const rotations: Target[][] = [
          ['server', 'floor', 'mock'],
          ['floor', 'mock', 'server'],
          ['mock', 'server', 'floor'],
        ];
        for (const [index, scenario] of all.entries()) {
          const results = await measure(targets, scenario, rotations[index % rotations.length] ?? ['server', 'floor']);
          report.measurements.push({ corpusSize: size, keyPlan: 'platform', scenario, ...results });
        }

        // 4b. quotes-random and quotes-categories over other routes: one key, the history off,
        // through HAProxy; with their costs per call.
        const routed = await measureRoutes({
          corpusSize: size,
          scenarios: all.filter((scenario) => routeScenarioIds.has(scenario.id)),
          startServer: (more) => startServerProcess({ ...env, ...more }),
          floorBase: targets.floor.base,
          keys: platformKeys,
          meter,
          load: { connections, durationSeconds, warmupSeconds },
          log,
        });
        report.routes?.push(...routed.routes);
        for (const note of routed.notes) if (!report.routeNotes?.includes(note)) report.routeNotes?.push(note);

        // 5. Bystander: one key's quotes-random alone, then beside another key flooding
        // never-seen combinations.
        const bystanderRun = () =>
          runLoad({
            origin: server.base,
            paths: ['/v1/quotes-random'],
            headers: platform,
            connections: bystanderConnections,
            durationSeconds,
            warmupSeconds: 0,
          });
        const alone = await bystanderRun();
        const [beside, flooding] = await Promise.all([
          bystanderRun(),
          runLoad({
            origin: server.base,
            paths: flood,
            headers: { 'X-API-Key': floodKey },
            connections: floodConnections,
            durationSeconds,
            warmupSeconds: 0,
            notFoundExpected: true,
          }),
        ]);
        log(
          `  bystander p99 ${alone.latencyP99Ms} ms alone, ${beside.latencyP99Ms} ms beside a flood of ${Math.round(flooding.requestsPerSecond)} never-seen calls/s`,
        );
        report.bystander.push({ corpusSize: size, alone, beside, flood: flooding });

        // 6. Counting on the path: a capped (professional) key, run by amount so it stays within its allowance.
        const professionalKey = await createKey(databaseUrl, 'professional', countedCalls + 5000);
        const scenario = all[0] as Scenario;
        const { result: counted, costs: countedCosts } = await meter.measure({ servers: [server.process.pid] }, () =>
          runLoad({
            origin: server.base,
            paths: [scenario.path],
            headers: { 'X-API-Key': professionalKey },
            connections,
            durationSeconds,
            warmupSeconds: 0,
            amount: countedCalls,
          }),
        );
        report.countedCosts?.push({ corpusSize: size, server: counted, costs: countedCosts });
        const floorResult = await runLoad({
          origin: targets.floor.base,
          paths: [scenario.path],
          connections,
          durationSeconds,
          warmupSeconds: 0,
          amount: countedCalls,
        });
        log(
          `  random (professional key, counted) ${Math.round(counted.requestsPerSecond)} req/s, errors ${counted.errors}`,
        );
        const usage = (await (
          await fetch(`${server.base}/v1/quotes-usage`, { headers: { 'X-API-Key': professionalKey } })
        ).json()) as { calls_this_month?: number; calls?: number };
        log(`  professional key's usage after ${counted.requests} calls: ${JSON.stringify(usage)}`);
        report.counting.push({
          corpusSize: size,
          sent: countedCalls,
          errors: counted.errors,
          usageSays: usage.calls_this_month ?? null,
        });
        report.measurements.push({
          corpusSize: size,
          keyPlan: 'professional',
          scenario,
          server: counted,
          floor: floorResult,
        });

        // 7. Cold, right after a corpus reload (another seed, same size): never-seen
        // combinations sent as soon as the reload has committed; the index is rebuilt meanwhile.
        // One reload per client count, so each meets a corpus none of its calls has seen.
        for (const [index, clients] of coldClients.entries()) {
          const reloadBegan = Date.now();
          await runNodeScript(
            adminCli,
            ['corpus', 'generate', '--size', String(size), '--seed', String(seed + 1 + index), '--yes'],
            env,
          );
          log(`  reloaded in ${((Date.now() - reloadBegan) / 1000).toFixed(1)} s`);
          await cold(server.base, 'after reload', coldAfterReload, clients);
        }
      } finally {
        // Read before stopping: the high-water mark goes with the process.
        report.peakRss[size] = await peakRssBytes(server.process.pid);
        await meter?.close();
        await server.process.stop();
        await floor.stop();
      }
    }
  } finally {
    await mock.stop();
    await cluster?.stop();
  }
  const out = options.out ?? committedResults;
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'latest.md'), markdownReport(report));
  await writeFile(join(out, 'latest.svg'), svgChart(report));
  await writeFile(join(out, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  log(`\n${markdownReport(report)}`);
  log(`bench: wrote ${join(out, 'latest.md')}, latest.svg and latest.json`);
  // The committed results are what the READMEs quote: a run that writes them rewrites the quotes too.
  if (resolve(out) === committedResults) {
    const quoted = await quoteResults(join(out, 'latest.json'));
    if (quoted.length > 0) log(`bench: quoted the run in ${quoted.join(', ')}`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
