import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
/** autocannon's CLI, run as a separate process so the load generator never shares the server's event loop. */
const autocannonBin = require.resolve('autocannon/autocannon.js');

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Seconds of measured load (ignored when `amount` is set). */
  durationSeconds: number;
  warmupSeconds: number;
  /** Stop after this many requests instead of after a duration (keeps a capped key within its allowance). */
  amount?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  /** Connection errors, timeouts and non-2xx answers together: any of them spoils the run. */
  errors: number;
}

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const args = [autocannonBin, '--json', '--no-progress', '-c', String(options.connections)];
  if (options.amount !== undefined) args.push('-a', String(options.amount));
  else args.push('-d', String(options.durationSeconds));
  if (options.warmupSeconds > 0)
    args.push('--warmup', '[', '-c', String(options.connections), '-d', String(options.warmupSeconds), ']');
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  args.push(options.url);
  const { stdout } = await run(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 });
  // With --warmup, autocannon prints the warm-up's result first: the measured run is the last line.
  const lines = stdout.trim().split('\n');
  const result = JSON.parse(lines[lines.length - 1] ?? '') as AutocannonJson;
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}
