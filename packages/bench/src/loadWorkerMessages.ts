/**
 * What the load worker and the bench say over the worker's IPC channel: the worker says
 * `warmedUp` between its warm-up and its measured run and waits for `measure`, so the bench reads
 * CPU counters at that moment (loadRun.ts). A duet's `measure` names the moment (epoch ms) both
 * load generators start at. Apart from loadWorker.ts, which runs when imported.
 */
export const warmedUp = 'warmed-up';
export const measure = 'measure';

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
