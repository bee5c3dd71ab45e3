import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runWorker } from './childProcess.js';
import type { LoadWorkerConfig, LoadWorkerResult } from './loadWorker.js';
import { type MeasureAt, measure, warmedUp } from './loadWorkerMessages.js';

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
  /** Where the warm-up goes (default: `origin`). */
  warmupOrigin?: string;
  /** The core the load generator runs on (a duet's side); anywhere when absent. */
  core?: number;
  /** The CPU group it joins (its duet side's, corePinning.ts). */
  group?: string;
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
  /** Answers in each whole second of the run (reports before duets lack it). */
  slices?: number[];
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

/** Lead time for a duet's common start: both workers have it well before the moment comes. */
const startLeadMs = 100;

/**
 * One load run, its warm-up first in the same load generator process. With `window`, the window
 * opens once the warm-up is over (the worker waits for it) and closes when the run has ended, so
 * counters read in it hold the measured run alone.
 */
export async function runLoad(options: LoadOptions, window?: MeasuredWindow): Promise<LoadResult> {
  const [result] = await runLoads([options], window ? [window] : []);
  if (!result) throw new Error('a load run returned nothing');
  return result;
}

/**
 * Load runs at the same time, each in its own load generator process after its own warm-up: once
 * every warm-up is over, every window opens and all measured runs start at one moment (a duet's
 * two sides), and each window closes when its run has ended.
 */
export async function runLoads(
  list: readonly LoadOptions[],
  windows: readonly MeasuredWindow[],
): Promise<LoadResult[]> {
  const children: ChildProcess[] = [];
  let opening: Promise<void> | undefined;
  let openFailure: unknown;
  const onMessage = (message: unknown, child: ChildProcess) => {
    if (message !== warmedUp) return;
    children.push(child);
    if (children.length < list.length) return;
    opening = Promise.all(windows.map((window) => window.open())).then(
      () => {
        const start: MeasureAt | typeof measure =
          list.length > 1 ? { measure: true, startAt: Date.now() + startLeadMs } : measure;
        for (const one of children) one.send(start);
      },
      (error: unknown) => {
        openFailure = error;
        for (const one of children) one.kill('SIGKILL');
      },
    );
  };
  const run = async (options: LoadOptions, index: number): Promise<LoadResult> => {
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
      warmupOrigin: options.warmupOrigin,
      core: options.core,
      group: options.group,
    };
    const result = await runWorker<LoadWorkerResult>(workerScript, config, workerDeadlineMs(config), [], onMessage);
    await windows[index]?.close();
    return {
      requestsPerSecond: result.requestsPerSecond,
      latencyP50Ms: result.latencyP50Ms,
      latencyP99Ms: result.latencyP99Ms,
      requests: result.requests,
      errors: result.errors + result.timeouts + (options.notFoundExpected ? result.serverErrors : result.non2xx),
      refused: result.refused,
      loadGeneratorCpuMicros: result.loadGeneratorCpuMicros,
      seconds: result.seconds,
      slices: result.slices,
    };
  };
  try {
    return await Promise.all(list.map(run));
  } catch (error) {
    for (const child of children) child.kill('SIGKILL');
    await opening;
    throw openFailure ?? error;
  } finally {
    await opening;
  }
}
