import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { runningChildren } from './childProcess.js';
import {
  isLoadResult,
  type LoadWorkerConfig,
  type LoadWorkerResult,
  type MeasureAt,
  measure,
  warmedUp,
} from './loadWorkerMessages.js';

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
  /** Its scheduling priority (nice, 0-19): a load that stands for clients on other machines takes only the CPU left over. */
  nice?: number;
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

/** A load generator process between runs, and what it last wrote on stderr. */
interface LoadWorker {
  child: ChildProcess;
  stderr(): string;
}

/** Load generators between runs: a run takes one (or starts one) and gives it back. */
const idleWorkers: LoadWorker[] = [];

/** Kept or let go: an idle worker does not hold the bench's process open, and ends with it. */
function hold(worker: LoadWorker, held: boolean): void {
  for (const handle of [worker.child, worker.child.channel, worker.child.stderr as Socket | null])
    if (held) handle?.ref();
    else handle?.unref();
}

function takeWorker(): LoadWorker {
  const kept = idleWorkers.pop();
  if (kept) {
    hold(kept, true);
    return kept;
  }
  const child = spawn(process.execPath, [workerScript], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  runningChildren.add(child);
  child.once('exit', () => runningChildren.delete(child));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  return { child, stderr: () => stderr.trim() };
}

/** Lead time for a duet's common start: both workers have it well before the moment comes. */
const startLeadMs = 100;

/**
 * One load run in a load generator process (loadWorker.ts), its warm-up first. When the warm-up is
 * over, `warmedUpThen` gives the message that starts the measured run (a duet's names a common
 * moment). A worker that fails or passes its deadline is stopped, and fails the run; one that
 * answered serves the next run, unless it was pinned to a core or a CPU group for this one.
 */
function runInWorker(
  config: LoadWorkerConfig,
  warmedUpThen: () => Promise<MeasureAt | typeof measure>,
): Promise<LoadWorkerResult> {
  const worker = takeWorker();
  const { child } = worker;
  const deadlineMs = workerDeadlineMs(config);
  const pinned = config.core !== undefined || config.group !== undefined || config.nice !== undefined;
  return new Promise<LoadWorkerResult>((resolve, reject) => {
    let starting: Promise<void> | undefined;
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      outcome();
    };
    const fail = (error: unknown) =>
      settle(() => {
        child.kill('SIGKILL');
        reject(error);
      });
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(new Error(`the load worker stopped (${code ?? signal}): ${worker.stderr()}`));
    const onMessage = (message: unknown) => {
      if (message === warmedUp) {
        starting = warmedUpThen().then((start) => {
          child.send(start);
        }, fail);
      } else if (isLoadResult(message)) {
        const { result } = message;
        settle(() => {
          if (pinned) child.kill();
          else {
            hold(worker, false);
            idleWorkers.push(worker);
          }
          // The window opened before the run it closes on.
          void (starting ?? Promise.resolve()).then(() => resolve(result));
        });
      }
    };
    const timer = setTimeout(
      () => fail(new Error(`a load run did not finish within ${deadlineMs / 1000} s, so it was stopped`)),
      deadlineMs,
    );
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send({ run: config });
  });
}

/** One load run, its warm-up first in the same load generator process (runInWorker). */
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
  let warm = 0;
  let allWarm: () => void = () => {};
  const everyoneWarm = new Promise<void>((resolve) => {
    allWarm = resolve;
  });
  // One start for all, named once every warm-up is over and every window is open.
  const start = everyoneWarm
    .then(() => Promise.all(windows.map((window) => window.open())))
    .then((): MeasureAt | typeof measure =>
      list.length > 1 ? { measure: true, startAt: Date.now() + startLeadMs } : measure,
    );
  const warmedUpThen = () => {
    warm++;
    if (warm === list.length) allWarm();
    return start;
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
      nice: options.nice,
    };
    const result = await runInWorker(config, warmedUpThen);
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
  return Promise.all(list.map(run));
}
