import { readFile } from 'node:fs/promises';
import { sampleLatencies } from './latencySample.js';

/**
 * One latency sample, in a process of its own, as the load runs are (loadWorker.ts): the bench's
 * own process holds every captured answer and the mixed traffic, and its collector's pauses
 * showed up as the server's latency (a p99 of 15.5 ms from the bench's event loop where a separate
 * client measured 4.6-7 ms for the same calls).
 */
export interface LatencyWorkerConfig {
  origin: string;
  paths: string[];
  headers: Record<string, string>;
  /** Calls in flight at once. */
  concurrency: number;
  /**
   * Asked first, unmeasured, `concurrency` at a time, as a load balancer probes a server before
   * sending it traffic: the client's connections are open and its code compiled, so the sample
   * times the server. A path outside the API, so no filter, key or quote is touched by it.
   */
  warmUpPath: string;
  warmUpRounds: number;
}

async function main(): Promise<void> {
  const config = JSON.parse(await readFile(process.argv[2] ?? '', 'utf8')) as LatencyWorkerConfig;
  const probes = Array.from({ length: config.warmUpRounds * config.concurrency }, () => config.warmUpPath);
  const warmUp = await sampleLatencies(config.origin, probes, {}, config.concurrency);
  if (warmUp.failures > 0) throw new Error(`${config.warmUpPath} failed ${warmUp.failures} times before the sample`);
  const sample = await sampleLatencies(config.origin, config.paths, config.headers, config.concurrency);
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`latency worker: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
