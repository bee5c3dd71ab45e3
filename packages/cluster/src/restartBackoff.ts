/** The wait before the first restart of a server that exited unasked: the deployment's RestartSec=1. */
export const firstRestartDelayMs = 1000;
/** The longest wait between two restarts of a server that keeps exiting. */
export const longestRestartDelayMs = 30_000;
/** A server ready this long before it exited starts the back-off over (it was not crash-looping). */
export const steadyRunMs = 30_000;

/**
 * How long to wait before starting a server again after `quickExits` exits in a row, each within
 * `steadyRunMs` of its start (or before it was ready): 1 s, then doubling to 30 s at most, so a
 * server that cannot start (a port taken, the database gone) is retried without spinning.
 */
export function restartDelayMs(quickExits: number): number {
  return Math.min(longestRestartDelayMs, firstRestartDelayMs * 2 ** Math.min(quickExits, 16));
}
