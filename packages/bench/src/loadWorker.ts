import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { percentile, toMicrosecond } from './latencySample.js';

/**
 * One load run, in its own process so the load generator never shares the server's or the
 * bench's event loop: autocannon driven through its API, which can send a different path on
 * every request (the mixed scenario's list) where its CLI repeats one URL.
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

async function main(): Promise<void> {
  const config = JSON.parse(await readFile(process.argv[2] ?? '', 'utf8')) as LoadWorkerConfig;
  let next = 0;
  const keys = config.keys ?? [];
  const started = performance.now();
  let lastAnswer = started;
  // Each answer's time as autocannon measured it (hrtime), not its latency histogram's whole milliseconds.
  const latencies: number[] = [];
  const run = autocannon({
    url: config.origin,
    connections: config.connections,
    ...(config.amount !== undefined ? { amount: config.amount } : { duration: config.durationSeconds }),
    headers: config.headers,
    requests: [
      {
        method: 'GET',
        setupRequest: (request: { path: string; headers?: Record<string, string> }) => {
          request.path = config.paths[next % config.paths.length] ?? '/';
          if (keys.length > 0) request.headers = { ...request.headers, 'x-api-key': keys[next % keys.length] ?? '' };
          next++;
          return request;
        },
      },
    ],
  });
  run.on('response', (_client, _statusCode, _bytes, responseTimeMs) => {
    latencies.push(responseTimeMs);
    lastAnswer = performance.now();
  });
  const result = await run;
  const sorted = Float64Array.from(latencies).sort();
  const latency = (fraction: number) => (sorted.length > 0 ? toMicrosecond(percentile(sorted, fraction)) : null);
  const answer: LoadWorkerResult = {
    // Timed here, from the start to the last answer: autocannon reports its result on its next
    // one-second tick, so both its mean of whole-second counts and its duration round a run
    // stopped by amount up to whole seconds (45,000 calls read 5,625/s, 45,000 / 8.01 s).
    requestsPerSecond: lastAnswer > started ? result.requests.total / ((lastAnswer - started) / 1000) : 0,
    latencyP50Ms: latency(0.5),
    latencyP99Ms: latency(0.99),
    requests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    serverErrors: result['5xx'],
  };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`load worker: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
