/**
 * What the load worker and the bench share, apart from loadWorker.ts, which runs when imported.
 * Over the worker's IPC channel the worker says `warmedUp` between its warm-up and its measured
 * run and waits for `measure`, so the bench reads CPU counters at that moment (loadRun.ts).
 */
export const warmedUp = 'warmed-up';
export const measure = 'measure';

/**
 * autocannon's sample interval in the worker, ms: a run ends on the first sample after its
 * duration is up or its last call is answered. At autocannon's default of a second, a run by
 * amount idled up to a second after its last answer (inside the cost window), and a run or
 * warm-up of a fraction of a second lasted a whole one. Its per-interval figures are not read
 * (each answer is timed as it comes). The shortest run the bench takes.
 */
export const sampleIntervalMs = 100;
