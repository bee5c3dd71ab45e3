import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

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
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  serverErrors: number;
}

interface AutocannonResult {
  requests: { total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '5xx': number;
}

type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

async function main(): Promise<void> {
  const config = JSON.parse(await readFile(process.argv[2] ?? '', 'utf8')) as LoadWorkerConfig;
  let next = 0;
  const keys = config.keys ?? [];
  const started = performance.now();
  let lastAnswer = started;
  const result = await autocannon({
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
        onResponse: () => {
          lastAnswer = performance.now();
        },
      },
    ],
  });
  const answer: LoadWorkerResult = {
    // Timed here, from the start to the last answer: autocannon reports its result on its next
    // one-second tick, so both its mean of whole-second counts and its duration round a run
    // stopped by amount up to whole seconds (45,000 calls read 5,625/s, 45,000 / 8.01 s).
    requestsPerSecond: lastAnswer > started ? result.requests.total / ((lastAnswer - started) / 1000) : 0,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
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
