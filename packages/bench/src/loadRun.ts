import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runWorker } from './childProcess.js';
import type { LoadWorkerConfig, LoadWorkerResult } from './loadWorker.js';
import { measure, warmedUp } from './loadWorkerMessages.js';

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
  /** Answers 429 (reports before it lack it). */
  refused?: number;
  /** The load generator's own CPU over the measured run, µs (reports before it lack it). */
  loadGeneratorCpuMicros?: number;
  /** Seconds from the measured run's start to its last answer. */
  seconds?: number;
}

/** Called between the warm-up and the measured run, and after the measured run: a cost meter's window. */
export interface MeasuredWindow {
  open(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A timed run ends on its own (autocannon times each request out after 10 s); a run by amount is
 * given a minute plus a second per 100 calls, a thirtieth of the slowest counted rate measured.
 */
const workerDeadlineMs = (config: LoadWorkerConfig) =>
  ((config.amount !== undefined ? config.amount / 100 : config.durationSeconds) + (config.warmupSeconds ?? 0) + 60) *
  1000;

/**
 * One load run, its warm-up first in the same load generator process. With `window`, the window
 * opens once the warm-up is over (the worker waits for it) and closes when the run has ended, so
 * counters read in it hold the measured run alone.
 */
export async function runLoad(options: LoadOptions, window?: MeasuredWindow): Promise<LoadResult> {
  const config: LoadWorkerConfig = {
    origin: options.origin,
    headers: options.headers ?? {},
    keys: options.keys,
    connections: options.connections,
    paths: options.paths,
    durationSeconds: options.durationSeconds,
    amount: options.amount,
    warmupSeconds: options.warmupSeconds,
    warmupPaths: options.warmupPaths,
  };
  let opening: Promise<void> | undefined;
  let openFailure: unknown;
  const onMessage = (message: unknown, child: ChildProcess) => {
    if (message !== warmedUp) return;
    opening = (window?.open() ?? Promise.resolve()).then(
      () => {
        child.send(measure);
      },
      (error: unknown) => {
        openFailure = error;
        child.kill('SIGKILL');
      },
    );
  };
  let result: LoadWorkerResult;
  try {
    result = await runWorker<LoadWorkerResult>(workerScript, config, workerDeadlineMs(config), [], onMessage);
  } catch (error) {
    await opening;
    throw openFailure ?? error;
  }
  await opening;
  await window?.close();
  return {
    requestsPerSecond: result.requestsPerSecond,
    latencyP50Ms: result.latencyP50Ms,
    latencyP99Ms: result.latencyP99Ms,
    requests: result.requests,
    errors: result.errors + result.timeouts + (options.notFoundExpected ? result.serverErrors : result.non2xx),
    refused: result.refused,
    loadGeneratorCpuMicros: result.loadGeneratorCpuMicros,
    seconds: result.seconds,
  };
}
