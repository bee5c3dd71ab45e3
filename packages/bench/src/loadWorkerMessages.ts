/**
 * What the load worker and the bench share, apart from loadWorker.ts, which runs when imported.
 * Over the worker's IPC channel the bench sends a run (`LoadRunMessage`), the worker says
 * `warmedUp` between its warm-up and its measured run and waits for `measure`, so the bench reads
 * CPU counters at that moment (loadRun.ts), then answers with its result (`LoadResultMessage`). A
 * duet's `measure` names the moment (epoch ms) both load generators start at.
 */
export const warmedUp = 'warmed-up';
export const measure = 'measure';

/** One run: what the worker sends and how long (loadWorker.ts). */
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
  /** This process's nice value for the run (it is not reused after: a priority lowered is not raised back). */
  nice?: number;
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

export interface LoadRunMessage {
  run: LoadWorkerConfig;
}

export interface LoadResultMessage {
  result: LoadWorkerResult;
}

export const isLoadRun = (message: unknown): message is LoadRunMessage =>
  typeof message === 'object' && message !== null && 'run' in message;

export const isLoadResult = (message: unknown): message is LoadResultMessage =>
  typeof message === 'object' && message !== null && 'result' in message;

/**
 * autocannon's sample interval in the worker, ms: a run ends on the first sample after its
 * duration is up or its last call is answered. At autocannon's default of a second, a run by
 * amount idled up to a second after its last answer (inside the cost window), and a run or
 * warm-up of a fraction of a second lasted a whole one. Its per-interval figures are not read
 * (each answer is timed as it comes). The shortest run the bench takes.
 */
export const sampleIntervalMs = 100;

export interface MeasureAt {
  measure: true;
  startAt: number;
}

export function isMeasure(message: unknown): message is typeof measure | MeasureAt {
  return (
    message === measure ||
    (typeof message === 'object' && message !== null && (message as Partial<MeasureAt>).measure === true)
  );
}
