import { fileURLToPath } from 'node:url';
import { runWorker } from './childProcess.js';
import type { LatencySample } from './latencySample.js';
import type { LatencyWorkerConfig } from './latencyWorker.js';

const workerScript = fileURLToPath(new URL('./latencyWorker.js', import.meta.url));

/** Rounds of the warm-up path before a sample (see latencyWorker.ts). */
const warmUpRounds = 5;

/** A sample of 2,000 calls takes 2-12 s; a server that stops answering fails it instead. */
const workerDeadlineMs = 5 * 60_000;

/** Times each path once, `concurrency` at a time, from a client process of its own. */
export function sampleLatenciesApart(options: {
  origin: string;
  paths: string[];
  headers: Record<string, string>;
  concurrency: number;
}): Promise<LatencySample> {
  const config: LatencyWorkerConfig = { ...options, warmUpPath: '/readyz', warmUpRounds };
  return runWorker<LatencySample>(workerScript, config, workerDeadlineMs);
}
