import { setPriority } from 'node:os';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pinToCore } from './corePinning.js';
import { percentile, toMicrosecond } from './latencySample.js';
import {
  isLoadRun,
  isMeasure,
  type LoadWorkerConfig,
  type LoadWorkerResult,
  sampleIntervalMs,
  warmedUp,
} from './loadWorkerMessages.js';

/**
 * Load runs, one after another, in a process of their own so the load generator never shares the
 * server's or the bench's event loop: autocannon driven through its API, which can send a
 * different path on every request (the mixed scenario's list) where its CLI repeats one URL. Each
 * run's warm-up runs in the same process, so the measured run meets a load generator already
 * compiled by the JIT, as warm as the target: a fresh process runs slower at first, which holds
 * back the faster side, the floor, more than the server. The process is kept for the next run
 * (loadRun.ts): starting Node and loading autocannon took 0.3 s a run.
 */

interface AutocannonResult {
  requests: { total: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '5xx': number;
}

/** A run: awaitable for its result, and emitting each answer with its time in fractional milliseconds. */
interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(
    event: 'response',
    listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
  ): unknown;
}

type Autocannon = (options: Record<string, unknown>) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** Set while a run waits for the bench's `measure`; a duet's names the moment to start at. */
let measureNow: ((startAt: number | undefined) => void) | undefined;

/**
 * Resolves when the bench says `measure`, having been told the warm-up is over, at the moment it
 * names: the two load generators of a duet start their measured runs at the same instant.
 */
async function measureWhenTold(): Promise<void> {
  const startAt = await new Promise<number | undefined>((resolve) => {
    measureNow = resolve;
    process.send?.(warmedUp);
  });
  const wait = startAt === undefined ? 0 : startAt - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

function load(
  config: LoadWorkerConfig,
  paths: string[],
  duration: { amount?: number; seconds: number },
  origin = config.origin,
) {
  let next = 0;
  const keys = config.keys ?? [];
  return autocannon({
    url: origin,
    connections: config.connections,
    sampleInt: sampleIntervalMs,
    ...(duration.amount !== undefined ? { amount: duration.amount } : { duration: duration.seconds }),
    headers: config.headers,
    requests: [
      {
        method: 'GET',
        setupRequest: (request: { path: string; headers?: Record<string, string> }) => {
          request.path = paths[next % paths.length] ?? '/';
          if (keys.length > 0) request.headers = { ...request.headers, 'x-api-key': keys[next % keys.length] ?? '' };
          next++;
          return request;
        },
      },
    ],
  });
}

async function run(config: LoadWorkerConfig): Promise<LoadWorkerResult> {
  // Every thread of this process on the run's core (util-linux's taskset; the bench checked it is there).
  if (config.core !== undefined) await pinToCore([process.pid], config.core);
  if (config.group !== undefined) await writeFile(`${config.group}/cgroup.procs`, String(process.pid));
  if (config.nice !== undefined) setPriority(config.nice);
  if ((config.warmupSeconds ?? 0) > 0)
    await load(
      config,
      config.warmupPaths ?? config.paths,
      { seconds: config.warmupSeconds ?? 0 },
      config.warmupOrigin ?? config.origin,
    );
  await measureWhenTold();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let lastAnswer = started;
  // A run by amount ends within a second it does not fill: only its whole seconds are kept (below).
  const byAmount = config.amount !== undefined;
  const slices = new Array<number>(byAmount ? 0 : Math.floor(config.durationSeconds)).fill(0);
  // Each answer's time as autocannon measured it (hrtime), not its latency histogram's whole milliseconds.
  const latencies: number[] = [];
  let refused = 0;
  const measured = load(config, config.paths, { amount: config.amount, seconds: config.durationSeconds });
  measured.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    latencies.push(responseTimeMs);
    if (statusCode === 429) refused++;
    lastAnswer = performance.now();
    const slice = Math.floor((lastAnswer - started) / 1000);
    if (byAmount || slice < slices.length) slices[slice] = (slices[slice] ?? 0) + 1;
  });
  const result = await measured;
  const cpu = process.cpuUsage(cpuBefore);
  const sorted = Float64Array.from(latencies).sort();
  const latency = (fraction: number) => (sorted.length > 0 ? toMicrosecond(percentile(sorted, fraction)) : null);
  const seconds = (lastAnswer - started) / 1000;
  const answer: LoadWorkerResult = {
    // Timed here, from the start to the last answer: autocannon reports its result on its next
    // sample, so both its mean of per-sample counts and its duration round a run stopped by
    // amount up to whole samples (at a second's: 45,000 calls read 5,625/s, 45,000 / 8.01 s).
    requestsPerSecond: seconds > 0 ? result.requests.total / seconds : 0,
    latencyP50Ms: latency(0.5),
    latencyP99Ms: latency(0.99),
    requests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    serverErrors: result['5xx'],
    refused,
    loadGeneratorCpuMicros: cpu.user + cpu.system,
    seconds,
    slices: byAmount ? Array.from(slices.slice(0, Math.floor(seconds)), (count) => count ?? 0) : slices,
  };
  return answer;
}

// A run at a time, as the bench sends them; the process ends with the bench's channel.
process.on('message', (message: unknown) => {
  if (isMeasure(message)) {
    measureNow?.(typeof message === 'string' ? undefined : message.startAt);
    measureNow = undefined;
  } else if (isLoadRun(message)) {
    run(message.run).then(
      (result) => process.send?.({ result }),
      (error: unknown) => {
        process.stderr.write(`load worker: ${error instanceof Error ? error.stack : String(error)}\n`);
        process.exit(1);
      },
    );
  }
});
process.on('disconnect', () => process.exit(0));
