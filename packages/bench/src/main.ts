import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMock } from '@quotes/mock';
import { startScript } from '@quotes/cluster';
import { freePort, startEmbeddedPostgres } from '@quotes/database';
import { runAdmin } from './adminCommands.js';
import { captureAnswers, writeAnswers } from './answerCapture.js';
import { createKey, createKeys, settleWrites, trafficKeys } from './benchDatabase.js';
import { OptionError, type PhaseId, parseBenchOptions, runDefaults } from './benchOptions.js';
import { type RunningProcess, runningChildren, startNodeProcess } from './childProcess.js';
import { CostMeter } from './callCosts.js';
import { duetUnavailable } from './corePinning.js';
import { runDuet, runDuetOnFreshPairs } from './duetRun.js';
import { measureHistoryMemory } from './historyMemory.js';
import { measureIndex } from './indexMicro.js';
import { corpusDatabase } from './keptCorpora.js';
import { sampleLatenciesApart } from './latencyRun.js';
import { runLoad } from './loadRun.js';
import { medianCosts } from './roundSummary.js';
import { mixedTraffic, neverSeenCombinations } from './mixedTraffic.js';
import { peakRssBytes, resetPeakRss } from './peakRss.js';
import { type BenchReport, type ColdMeasurement, markdownReport, svgChart } from './report.js';
import { runInterleaved } from './roundRun.js';
import { quoteResults } from './readmeQuotes.js';
import { measureRoutes } from './routeRun.js';
import { measureScenario } from './scenarioRun.js';
import { mixedScenario, pickFilteredPaths, type Scenario, scenarios } from './scenarios.js';
import { startedTogether } from './startedTogether.js';

/** Where a default run writes: the results the READMEs quote. */
const committedResults = fileURLToPath(new URL('../results', import.meta.url));
/** Where the bench's own PostgreSQL keeps corpora between runs: the repository's .data, never committed. */
const keptCorpora = fileURLToPath(new URL('../../../.data/bench', import.meta.url));
async function readOptions() {
  try {
    const options = parseBenchOptions(process.argv.slice(2), committedResults, keptCorpora);
    // The committed results are medians of at least the method's default rounds, over its default phases.
    const defaults = runDefaults(options.method, options.long);
    if (resolve(options.out) === committedResults && options.rounds < defaults.rounds)
      throw new OptionError(
        `--rounds ${options.rounds} writes results the READMEs quote, which take at least ${defaults.rounds}; give --out another folder`,
      );
    if (resolve(options.out) === committedResults && defaults.phases.some((phase) => !options.phases.has(phase)))
      throw new OptionError(
        '--phases writes results the READMEs quote, which take every phase of the run; give --out another folder',
      );
    const unavailable = options.method === 'duet' ? await duetUnavailable() : null;
    if (unavailable !== null) throw new OptionError(unavailable);
    return options;
  } catch (error) {
    if (!(error instanceof OptionError)) throw error;
    process.stderr.write(`bench: ${error.message}\n`);
    process.exit(2);
  }
}

const options = await readOptions();
/** The duet's two cores: the server's side and the floor's, swapped each round. */
const duetCores = [0, 1] as const;
const { sizes, durationSeconds, warmupSeconds, rounds, connections, seed, mixedUrls, coldCalls, countedCalls } =
  options;
/** What every measured run of the throughput scenarios gets. */
const load = { connections, durationSeconds, warmupSeconds };
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
/** The server runs as `npm start` runs it: with the environment and Node options of its start script. */
const serverStart = startScript();
const serverNodeOptions = [...serverStart.nodeFlags, ...options.serverNodeOptions];
const floorScript = fileURLToPath(new URL('./floorApp.js', import.meta.url));
/** The floor runs on the same Node with the start script's Node options (not the extra ones, which profile the server). */
const floorNodeOptions = [...serverStart.nodeFlags];

const log = (line: string) => process.stdout.write(`${line}\n`);

/** How long a server process may take to be ready: over 2 minutes was seen at a load average of 28 from other work. */
const serverStartMs = 600_000;

async function answers(url: string): Promise<boolean> {
  const response = await fetch(url);
  return response.status < 500;
}

function startServerProcess(env: NodeJS.ProcessEnv): Promise<{ process: RunningProcess; base: string }> {
  return freePort().then(async (port) => ({
    process: await startNodeProcess(
      serverMain,
      [],
      { ...serverStart.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
      () => answers(`http://127.0.0.1:${port}/readyz`),
      serverStartMs,
      serverNodeOptions,
    ),
    base: `http://127.0.0.1:${port}`,
  }));
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  log(
    `bench: ${options.method}${options.long ? ', long' : ''}; sizes ${sizes.join(', ')}; ${connections} connections; ${rounds} rounds of ${durationSeconds} s per target after ${warmupSeconds} s of warm-up each; ${machine}`,
  );

  // Timed in this process: before anything else runs beside it.
  const index: BenchReport['index'] = [];
  for (const size of sizes) {
    log(`index micro-measurement at ${size.toLocaleString('en-US')} quotes`);
    const micro = await measureIndex(size, seed);
    log(`  bitsets ${micro.bitsetMicros} µs per filter, Roaring ${micro.roaringMicros} µs`);
    index.push(micro);
  }
  // The usage history's memory is counted in bytes, in a process of its own: the throwaway
  // cluster and the mock start beside it.
  const clusterStart = process.env.DATABASE_URL
    ? Promise.resolve(null)
    : freePort().then((port) =>
        startEmbeddedPostgres({ dataDir: join(options.corpora, 'postgres'), port, persistent: true }),
      );
  const mockStart = startMock({ port: 0 });
  const historyMeasure = measureHistoryMemory(options.historyKeys, undefined, options.historyRounds);
  const [cluster, mock, historyMeasured] = await startedTogether([clusterStart, mockStart, historyMeasure], () =>
    Promise.allSettled([mockStart.then((one) => one.stop()), clusterStart.then((one) => one?.stop())]),
  );
  log(
    `usage history in memory: ${historyMeasured.ordinaryBytesPerKey} bytes per ordinary key, ${historyMeasured.boundBytesPerKey} at the bound`,
  );
  const adminUrl = process.env.DATABASE_URL ?? cluster?.adminUrl ?? '';
  // Stopped by a signal: the children and the throwaway cluster go too, not left running.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      for (const child of runningChildren) child.kill('SIGTERM');
      void Promise.allSettled([mock.stop(), cluster?.stop()]).finally(() => process.exit(130));
    });
  const report: BenchReport = {
    startedAt,
    machine,
    method: options.method,
    connections,
    durationSeconds,
    warmupSeconds,
    rounds,
    measurements: [],
    peakRss: {},
    phaseRss: [],
    cold: [],
    bystander: [],
    counting: [],
    index,
    historyMemory: historyMeasured,
    routes: [],
    routeNotes: [],
    countedCosts: [],
    journal: [],
  };
  try {
    for (const size of sizes) {
      log(`corpus ${size.toLocaleString('en-US')}: preparing`);
      const databaseUrl = await corpusDatabase(adminUrl, size, seed, log);
      const env = { DATABASE_URL: databaseUrl };
      await settleWrites(databaseUrl, log);
      const platformKeys = await createKeys(databaseUrl, trafficKeys);
      const platformKey = platformKeys[0] as string;
      const floodKey = await createKey(databaseUrl, 'platform');
      const traffic = mixedTraffic(seed + size, mixedUrls, mixedUrls * 10);
      // Each list is asked of a server that has not seen it: a fresh process, or a reloaded corpus.
      const coldAfterStart = neverSeenCombinations(seed + 1, coldCalls);
      // One list per client count after the reload, none of them in another.
      const reloadLists = neverSeenCombinations(seed + 2, coldCalls * coldClients.length);
      const coldAfterReload = coldClients.map((_, index) =>
        reloadLists.slice(index * coldCalls, (index + 1) * coldCalls),
      );
      const flood = neverSeenCombinations(seed + 3, 5000);
      // Another flood for the floor's bystander: the first one's combinations are seen by then.
      const secondFlood = neverSeenCombinations(seed + 4, 5000);

      // 1. Capture: what the server answers each URL with, from a server that is then stopped,
      // so the one measured next meets the cold calls just started. The first cold row's server
      // starts beside it (a start is not measured) and meets its calls once it has stopped, the
      // only server on the database, as every cold row's server does.
      const freshServers = options.phases.has('cold') ? coldClients : [];
      let firstFresh = freshServers.length > 0 ? startServerProcess(env) : undefined;
      // Its failure is reported where it is awaited, or it is stopped where the capture failed.
      firstFresh?.catch(() => undefined);
      const stopFirstFresh = () => firstFresh?.then((fresh) => fresh.process.stop()).catch(() => undefined);
      let all: Scenario[];
      const answersFile = join(await mkdtemp(join(tmpdir(), 'quotes-bench-answers-')), 'answers.json');
      try {
        const capturing = await startServerProcess(env);
        try {
          const filtered = await pickFilteredPaths(capturing.base, platformKey, log);
          all = scenarios(filtered.list, filtered.random, size);
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
      } catch (error) {
        await stopFirstFresh();
        throw error;
      }
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
      // process just started, stopped after its figures: the server measured next meets the
      // mixed traffic first.
      const afterStart = async (base: string, clients: number) => {
        await cold(base, 'after start', coldAfterStart, clients);
        await cold(base, 'the same calls again', coldAfterStart, clients);
      };
      let coldPeak: { phase: PhaseId; bytes: number | null } | undefined;
      for (const clients of freshServers) {
        const fresh = await (firstFresh ?? startServerProcess(env));
        firstFresh = undefined;
        try {
          await resetPeakRss(fresh.process.pid);
          await afterStart(fresh.base, clients);
          coldPeak = { phase: 'cold', bytes: await peakRssBytes(fresh.process.pid) };
        } finally {
          await fresh.process.stop();
        }
      }
      const floorPort = await freePort();
      const floorStart = startNodeProcess(
        floorScript,
        [],
        { PORT: String(floorPort), CAPTURED_ANSWERS: answersFile },
        () => answers(`http://127.0.0.1:${floorPort}/v1/quotes-usage`),
        serverStartMs,
        floorNodeOptions,
      );
      const serverStart = startServerProcess(env);
      const [floor, server] = await startedTogether([floorStart, serverStart], () =>
        Promise.allSettled([floorStart.then((one) => one.stop()), serverStart.then((one) => one.process.stop())]),
      );
      let meter: CostMeter | undefined;
      // Each phase's own peak: the high-water mark is set back to the resident set as it begins.
      const phasePeaks: Array<{ phase: PhaseId | 'start'; bytes: number | null }> = [
        { phase: 'start', bytes: await peakRssBytes(server.process.pid) },
        ...(coldPeak ? [coldPeak] : []),
      ];
      const phase = async (id: PhaseId, run: () => Promise<void>) => {
        if (!options.phases.has(id)) return;
        await resetPeakRss(server.process.pid);
        try {
          await run();
        } finally {
          const bytes = await peakRssBytes(server.process.pid);
          phasePeaks.push({ phase: id, bytes });
          log(`  ${id}: peak RSS ${bytes === null ? 'n/a' : `${Math.round(bytes / 2 ** 20)} MB`}`);
        }
      };
      try {
        const costs = await CostMeter.open(databaseUrl);
        meter = costs;
        const floorBase = `http://127.0.0.1:${floorPort}`;
        const scenarioRun = (scenario: Scenario, paths: string[], withMock: boolean) =>
          measureScenario({
            corpusSize: size,
            scenario,
            paths,
            server: { base: server.base, pid: server.process.pid },
            floor: { base: floorBase, pid: floor.pid },
            mock: withMock ? { base: mock.url, headers: { 'X-API-Key': 'qk_mock' } } : undefined,
            keys: platformKeys,
            rounds,
            meter: costs,
            load,
            log,
            ...(options.method === 'duet'
              ? {
                  duet: {
                    cores: duetCores,
                    postgres: () => costs.postgresProcesses(),
                    coldFirst: scenario.id === 'mixed',
                  },
                }
              : {}),
          });

        await phase('throughput', async () => {
          // 3. Mixed traffic, the server's first work: in a duet, a cold round (no warm-up of the
          // server: the first round after start), then rounds each after a warm-up on the same
          // traffic, so each meets it alike.
          if (options.scenarios.has('mixed')) {
            const mixed = mixedScenario(traffic.distinct.length, traffic.sequence.length, size);
            report.measurements.push(await scenarioRun(mixed, traffic.sequence, false));
          }

          // 4. One URL per scenario, against the same-bytes floor and the mock.
          for (const scenario of all.filter((one) => options.scenarios.has(one.id)))
            report.measurements.push(await scenarioRun(scenario, [scenario.path], options.mock));
        });
        await phase('journal', async () => {
          // 3b. What holding answers for their journal line costs (0044): a server with the journal
          // beside one without (DATA_DIR not a directory), quotes-random on the 16 keys, PostgreSQL
          // on both sides' cores (both count). As a duet, a fresh pair for each round: the ratio of
          // two servers moves from one pair of processes to the next as much as between rounds.
          const scenario = all[0] as Scenario;
          const side = (name: string, origin: string, pid: number) => ({
            name,
            pids: { servers: [pid] },
            load: { origin, paths: [scenario.path], keys: platformKeys, ...load },
          });
          const startPair = async () => {
            const starts = [startServerProcess(env), startServerProcess({ ...env, DATA_DIR: '/dev/null' })] as const;
            const stop = () => Promise.allSettled(starts.map((start) => start.then((one) => one.process.stop())));
            const [journaled, bare] = await startedTogether(starts, stop);
            return {
              server: side('journal', journaled.base, journaled.process.pid),
              floor: side('no journal', bare.base, bare.process.pid),
              stop,
            };
          };
          const measured =
            options.method === 'duet'
              ? await runDuetOnFreshPairs({ rounds, cores: duetCores, meter: costs, label: 'journal', log }, startPair)
              : await (async () => {
                  const { server: withJournal, floor: without, stop } = await startPair();
                  try {
                    return (
                      await runInterleaved({
                        floor: { ...without, run: (window) => runLoad(without.load, window) },
                        targets: [{ ...withJournal, run: (window) => runLoad(withJournal.load, window) }],
                        rounds,
                        meter: costs,
                        label: 'journal',
                        log,
                      })
                    )[0];
                  } finally {
                    await stop();
                  }
                })();
          if (measured) report.journal?.push({ corpusSize: size, scenario, ...measured });
        });
        await phase('routes', async () => {
          // 4b. quotes-random and quotes-categories over other routes: one key, the history off,
          // through HAProxy; with their costs per call.
          const routed = await measureRoutes({
            corpusSize: size,
            scenarios: all.filter((scenario) => options.routeScenarios.has(scenario.id)),
            startServer: (more) => startServerProcess({ ...env, ...more }),
            floor: { base: floorBase, pid: floor.pid },
            keys: platformKeys,
            rounds,
            meter: costs,
            load,
            log,
          });
          report.routes?.push(...routed.routes);
          for (const note of routed.notes) if (!report.routeNotes?.includes(note)) report.routeNotes?.push(note);
        });
        await phase('bystander', async () => {
          // 5. Bystander: one key's quotes-random alone, then beside another key flooding
          // never-seen combinations; then the same calls at the floor, alone and beside the same
          // flood at the server: what the machine's load alone does to a p99. The flood's load
          // generator takes only the CPU left over (nice 19): it stands for clients on other machines.
          const bystanderRun = (origin: string) =>
            runLoad({
              origin,
              paths: ['/v1/quotes-random'],
              headers: platform,
              connections: bystanderConnections,
              durationSeconds,
              warmupSeconds: 0,
            });
          const floodRun = (paths: string[]) =>
            runLoad({
              origin: server.base,
              paths,
              headers: { 'X-API-Key': floodKey },
              connections: floodConnections,
              durationSeconds,
              warmupSeconds: 0,
              notFoundExpected: true,
              nice: 19,
            });
          const alone = await bystanderRun(server.base);
          const [beside, flooding] = await Promise.all([bystanderRun(server.base), floodRun(flood)]);
          const floorAlone = await bystanderRun(floorBase);
          const [floorBeside] = await Promise.all([bystanderRun(floorBase), floodRun(secondFlood)]);
          log(
            `  bystander p99 ${alone.latencyP99Ms} ms alone, ${beside.latencyP99Ms} ms beside a flood of ${Math.round(flooding.requestsPerSecond)} never-seen calls/s; at the floor ${floorAlone.latencyP99Ms} and ${floorBeside.latencyP99Ms} ms`,
          );
          report.bystander.push({ corpusSize: size, alone, beside, flood: flooding, floorAlone, floorBeside });
        });
        await phase('counted', async () => {
          // 6. Counting on the path: a capped (professional) key, run by amount so it stays within
          // its allowance; then the floor sent the same calls, for the row beside the others. In a
          // duet, in as many rounds as every other row (the cores swapped each), so its ratio
          // rests on as many seconds; its usage must then say every round's calls.
          const countedRounds = options.method === 'duet' ? rounds : 1;
          const sent = countedCalls * countedRounds;
          const professionalKey = await createKey(databaseUrl, 'professional', sent + 5000);
          const scenario = all[0] as Scenario;
          const countedLoad = (origin: string) => ({
            origin,
            paths: [scenario.path],
            headers: { 'X-API-Key': professionalKey },
            connections,
            durationSeconds,
            warmupSeconds: 0,
            amount: countedCalls,
          });
          const countedRun = (origin: string) => () => runLoad(countedLoad(origin));
          // In a duet, the floor is sent the same calls at the same moment; alternating, it is sent
          // them after (one run: the allowance holds one).
          const duet =
            options.method === 'duet'
              ? await runDuet({
                  server: {
                    name: 'server',
                    pids: { servers: [server.process.pid] },
                    load: countedLoad(server.base),
                    companions: () => costs.postgresProcesses(),
                  },
                  floor: { name: 'floor', pids: { servers: [floor.pid] }, load: countedLoad(floorBase) },
                  rounds: countedRounds,
                  cores: duetCores,
                  meter: costs,
                  label: 'counted',
                  log,
                })
              : undefined;
          const duetRounds = (duet?.rounds ?? []).map((round) => round.server);
          const { result: counted, costs: countedCosts } = duet
            ? { result: duet.server, costs: medianCosts(duetRounds.map((round) => round.costs ?? null)) }
            : await costs.measure({ servers: [server.process.pid] }, countedRun(server.base));
          const countedErrors = duet ? duetRounds.reduce((sum, round) => sum + round.errors, 0) : counted.errors;
          report.countedCosts?.push({ corpusSize: size, server: counted, costs: countedCosts });
          log(
            `  random (professional key, counted) ${Math.round(counted.requestsPerSecond)} req/s, errors ${countedErrors}`,
          );
          const usage = (await (
            await fetch(`${server.base}/v1/quotes-usage`, { headers: { 'X-API-Key': professionalKey } })
          ).json()) as { calls_this_month?: number; calls?: number };
          log(`  professional key's usage after ${sent} calls: ${JSON.stringify(usage)}`);
          report.counting.push({
            corpusSize: size,
            sent,
            errors: countedErrors,
            usageSays: usage.calls_this_month ?? null,
          });
          if (duet) {
            report.measurements.push({ corpusSize: size, keyPlan: 'professional', scenario, ...duet });
            return;
          }
          const floorCounted = await costs.measure({ servers: [floor.pid] }, countedRun(floorBase));
          const floorRun = { ...floorCounted.result, costs: floorCounted.costs };
          report.measurements.push({
            corpusSize: size,
            keyPlan: 'professional',
            scenario,
            server: counted,
            floor: floorCounted.result,
            // One round: the allowance holds one counted run.
            rounds: [
              { server: { ...counted, costs: countedCosts }, floorRequestsPerSecond: floorRun.requestsPerSecond },
            ],
            floorRuns: [floorRun],
          });
        });
        await phase('reload', async () => {
          // 7. Cold, right after a corpus reload (another seed, same size): never-seen
          // combinations sent as soon as the reload has committed. One reload, then each client
          // count in turn with a list of its own, so each meets combinations and quotes the new
          // corpus has not served.
          const reloadBegan = Date.now();
          await runAdmin(env, ['corpus', 'generate', '--size', String(size), '--seed', String(seed + 1), '--yes']);
          log(`  reloaded in ${((Date.now() - reloadBegan) / 1000).toFixed(1)} s`);
          for (const [index, clients] of coldClients.entries())
            await cold(server.base, 'after reload', coldAfterReload[index] ?? [], clients);
        });
      } finally {
        // The whole run's peak is the highest phase's (each phase set the mark back as it began).
        report.phaseRss?.push(...phasePeaks.map((peak) => ({ corpusSize: size, ...peak })));
        const known = phasePeaks.flatMap((peak) => (peak.bytes === null ? [] : [peak.bytes]));
        report.peakRss[size] = known.length > 0 ? Math.max(...known) : null;
        await meter?.close();
        await server.process.stop();
        await floor.stop();
      }
    }
  } finally {
    await Promise.all([mock.stop(), cluster?.stop()]);
  }
  const out = options.out ?? committedResults;
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'latest.md'), markdownReport(report));
  await writeFile(join(out, 'latest.svg'), svgChart(report));
  await writeFile(join(out, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  log(`\n${markdownReport(report)}`);
  const minutes = (Date.now() - Date.parse(startedAt)) / 60_000;
  log(`bench: wrote ${join(out, 'latest.md')}, latest.svg and latest.json, ${minutes.toFixed(1)} min after starting`);
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
