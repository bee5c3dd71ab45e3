import { fileURLToPath } from 'node:url';
import { runWorker } from './childProcess.js';

/**
 * The usage history's memory per active key between two flushes: the heap and ArrayBuffers a
 * recorder holds after many keys' calls, over the key count (src/historyMemoryWorker.ts). An
 * ordinary key: 20 served random quotes of a 150,000-quote corpus (their coverage bits), one kind
 * of refusal, one client network, one browser origin, five filter pages. A key at the bounds:
 * every distinct network, origin and page it may hold per flush (1,000 each, 200-character
 * origins), past which new values are not kept, and every position of a 1,500,000-quote corpus
 * covered.
 */
export interface HistoryMemoryResult {
  ordinaryKeys: number;
  ordinaryBytesPerKey: number;
  /** What the recorder estimates it holds per key (its byte budget is kept on the estimate). */
  ordinaryEstimatedBytesPerKey?: number;
  boundKeys: number;
  boundBytesPerKey: number;
  boundEstimatedBytesPerKey?: number;
  /** Measurements each figure is the median of. */
  rounds?: number;
}

export interface HistoryMemoryConfig {
  ordinaryKeys: number;
  boundKeys: number;
  rounds: number;
}

/** What a run of the bench measures unless told otherwise (`--history-keys`, `--history-rounds`). */
export const historyMemoryDefaults: HistoryMemoryConfig = { ordinaryKeys: 10_000, boundKeys: 20, rounds: 5 };

const workerScript = fileURLToPath(new URL('./historyMemoryWorker.js', import.meta.url));

/** Five rounds take 5-10 s; a worker that hangs fails the bench instead. */
const workerDeadlineMs = 5 * 60_000;

/**
 * Measured in a fresh process (`--expose-gc`), the median of `rounds`: in the bench's own process,
 * after the embedded cluster's start and the index measurements, the heap shrank while it
 * measured and an ordinary key read -1,529 bytes.
 */
export function measureHistoryMemory(
  ordinaryKeys = historyMemoryDefaults.ordinaryKeys,
  boundKeys = historyMemoryDefaults.boundKeys,
  rounds = historyMemoryDefaults.rounds,
): Promise<HistoryMemoryResult> {
  const config: HistoryMemoryConfig = { ordinaryKeys, boundKeys, rounds };
  return runWorker<HistoryMemoryResult>(workerScript, config, workerDeadlineMs, ['--expose-gc']);
}
