/**
 * What the load worker and the bench say over the worker's IPC channel: the worker says
 * `warmedUp` between its warm-up and its measured run and waits for `measure`, so the bench reads
 * CPU counters at that moment (loadRun.ts). Apart from loadWorker.ts, which runs when imported.
 */
export const warmedUp = 'warmed-up';
export const measure = 'measure';
