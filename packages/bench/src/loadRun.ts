import { fileURLToPath } from 'node:url';
import { runWorker } from './childProcess.js';
import type { LoadWorkerConfig, LoadWorkerResult } from './loadWorker.js';

const workerScript = fileURLToPath(new URL('./loadWorker.js', import.meta.url));

export interface LoadOptions {
  origin: string;
  /** One path repeated, or a list sent in order, round and round. */
  paths: string[];
  headers?: Record<string, string>;
  /** API keys sent in turn, one per request. */
  keys?: string[];
  connections: number;
  /** Seconds of measured load (ignored when `amount` is set). */
  durationSeconds: number;
  /** Seconds of unmeasured load first, on `warmupPaths` (default: the same paths). */
  warmupSeconds: number;
  warmupPaths?: string[];
  /** Stop after this many requests instead of after a duration (keeps a capped key within its allowance). */
  amount?: number;
  /** 404s are part of the traffic (the mixed scenario): only connection errors, timeouts and 5xx spoil it. */
  notFoundExpected?: boolean;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds to the microsecond; null when nothing answered. */
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
  requests: number;
  /** Connection errors, timeouts and unexpected statuses together: any of them spoils the run. */
  errors: number;
}

/**
 * A timed run ends on its own (autocannon times each request out after 10 s); a run by amount is
 * given a minute plus a second per 100 calls, a thirtieth of the slowest counted rate measured.
 */
const workerDeadlineMs = (config: LoadWorkerConfig) =>
  ((config.amount !== undefined ? config.amount / 100 : config.durationSeconds) + 60) * 1000;

const runLoadWorker = (config: LoadWorkerConfig) =>
  runWorker<LoadWorkerResult>(workerScript, config, workerDeadlineMs(config));

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const base = {
    origin: options.origin,
    headers: options.headers ?? {},
    keys: options.keys,
    connections: options.connections,
  };
  if (options.warmupSeconds > 0)
    await runLoadWorker({
      ...base,
      paths: options.warmupPaths ?? options.paths,
      durationSeconds: options.warmupSeconds,
    });
  const result = await runLoadWorker({
    ...base,
    paths: options.paths,
    durationSeconds: options.durationSeconds,
    amount: options.amount,
  });
  return {
    requestsPerSecond: result.requestsPerSecond,
    latencyP50Ms: result.latencyP50Ms,
    latencyP99Ms: result.latencyP99Ms,
    requests: result.requests,
    errors: result.errors + result.timeouts + (options.notFoundExpected ? result.serverErrors : result.non2xx),
  };
}
