import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { percentile, toMicrosecond } from './latencySample.js';
import { isMeasure, warmedUp } from './loadWorkerMessages.js';

/**
 * One load run, in its own process so the load generator never shares the server's or the
 * bench's event loop: autocannon driven through its API, which can send a different path on
 * every request (the mixed scenario's list) where its CLI repeats one URL. The warm-up runs in
 * the same process, so the measured run meets a load generator already compiled by the JIT, as
 * warm as the target: a fresh process runs slower at first, which holds back the faster side,
 * the floor, more than the server.
 */
export interface LoadWorkerConfig {
  origin: string;
  /** Sent in this order, round and round; one entry repeats one URL. */
  paths: string[];
  headers: Record<string, string>;
  /** API keys sent in turn, one per request (X-API-Key), as traffic from many clients is. */
  keys?: string[];
  connections: number;
  durationSeconds: number;
  /** Stop after this many requests instead of after a duration. */
  amount?: number;
  /** Seconds of unmeasured load first, on `warmupPaths` (default: `paths`). */
  warmupSeconds?: number;
  warmupPaths?: string[];
  /** Where the warm-up goes (default: `origin`): a cold round warms the load generator on the floor, not the server. */
  warmupOrigin?: string;
  /** The core this process runs on (`taskset`), for a duet: each side's load generator on its side's core. */
  core?: number;
  /** The CPU group (cgroup) this process joins: its duet side's. */
  group?: string;
}

export interface LoadWorkerResult {
  requestsPerSecond: number;
  /** To the microsecond; null when nothing answered. */
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  serverErrors: number;
  /** Answers 429: calls refused for the key's rate, calls at once or allowance. */
  refused: number;
  /** The load generator's own CPU (user + system, this process) over the measured run, µs. */
  loadGeneratorCpuMicros: number;
  /** Seconds from the measured run's start to its last answer. */
  seconds: number;
  /** Answers in each whole second from the measured run's start (the start the bench gave, in a duet). */
  slices: number[];
}

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

/**
 * Resolves when the bench says `measure` (at once without an IPC channel), at the moment it names:
 * the two load generators of a duet start their measured runs at the same instant.
 */
async function measureWhenTold(): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) return;
  const told = new Promise<number | undefined>((resolve) => {
    process.on('message', (message) => {
      if (isMeasure(message)) resolve(typeof message === 'string' ? undefined : message.startAt);
    });
  });
  send(warmedUp);
  const startAt = await told;
  // Nothing more to say: without the channel open, the process ends when its run does.
  process.disconnect();
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

async function main(): Promise<void> {
  const config = JSON.parse(await readFile(process.argv[2] ?? '', 'utf8')) as LoadWorkerConfig;
  // Every thread of this process on the given core (util-linux's taskset; the bench checked it is there).
  if (config.core !== undefined) execFileSync('taskset', ['-a', '-cp', String(config.core), String(process.pid)]);
  if (config.group !== undefined) await writeFile(`${config.group}/cgroup.procs`, String(process.pid));
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
  const slices = new Array<number>(config.amount !== undefined ? 0 : config.durationSeconds).fill(0);
  const byAmount = config.amount !== undefined;
  // Each answer's time as autocannon measured it (hrtime), not its latency histogram's whole milliseconds.
  const latencies: number[] = [];
  let refused = 0;
  const run = load(config, config.paths, { amount: config.amount, seconds: config.durationSeconds });
  run.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
    latencies.push(responseTimeMs);
    if (statusCode === 429) refused++;
    lastAnswer = performance.now();
    const slice = Math.floor((lastAnswer - started) / 1000);
    if (byAmount || slice < slices.length) slices[slice] = (slices[slice] ?? 0) + 1;
  });
  const result = await run;
  const cpu = process.cpuUsage(cpuBefore);
  const sorted = Float64Array.from(latencies).sort();
  const latency = (fraction: number) => (sorted.length > 0 ? toMicrosecond(percentile(sorted, fraction)) : null);
  const seconds = (lastAnswer - started) / 1000;
  const answer: LoadWorkerResult = {
    // Timed here, from the start to the last answer: autocannon reports its result on its next
    // one-second tick, so both its mean of whole-second counts and its duration round a run
    // stopped by amount up to whole seconds (45,000 calls read 5,625/s, 45,000 / 8.01 s).
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
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`load worker: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
