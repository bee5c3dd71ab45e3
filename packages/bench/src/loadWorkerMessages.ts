/**
 * What the load worker and the bench share, apart from loadWorker.ts, which runs when imported.
 * Over the worker's IPC channel the bench sends a run (`LoadRunMessage`), the worker says
 * `warmedUp` between its warm-up and its measured run and waits for `measure`, so the bench reads
 * CPU counters at that moment (loadRun.ts), then answers with its result (`LoadResultMessage`).
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
