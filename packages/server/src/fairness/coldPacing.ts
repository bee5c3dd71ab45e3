import { InFlightGate } from './inFlightGate.js';

interface Lane {
  /** One paced call of the key at a time; the next ones wait in line, each until its deadline. */
  readonly gate: InFlightGate;
  /** The paced call holding the gate's place: it may be in its pause, waiting for a place or running. */
  release: (() => void) | undefined;
  /** When the key's next paced call may start: its last one's end plus what it took. */
  pausedUntil: number;
}

/**
 * The pace of a key leading the server's cold calls while other keys are served (see ColdShares):
 * its calls run one at a time, and each starts no sooner after the previous one ended than that one
 * took, so the key holds cold work at most about half the time and the event loop has the rest for
 * the others. A call that cannot start before its deadline is refused by the caller.
 */
export class ColdPacing {
  private readonly lanes = new Map<string, Lane>();
  private sweptAt = Number.NEGATIVE_INFINITY;

  /**
   * Resolves true once the call may take its place (calling `waits` first if it has to wait in line
   * or in the pause), false if `maxWaitMs` passes first. Every true must be followed by `finish`.
   */
  async enter(keyId: string, maxWaitMs: number, waits: () => void = () => undefined): Promise<boolean> {
    const now = performance.now();
    this.sweep(now);
    let lane = this.lanes.get(keyId);
    if (!lane) {
      // The line is bounded by the key's calls at once (KeyFairness), not here.
      lane = { gate: new InFlightGate(1, Number.POSITIVE_INFINITY, maxWaitMs), release: undefined, pausedUntil: now };
      this.lanes.set(keyId, lane);
    }
    if (!lane.gate.idle) waits();
    const entered = await lane.gate.enter(maxWaitMs);
    if (typeof entered !== 'function') return false;
    lane.release = entered;
    const pause = lane.pausedUntil - performance.now();
    if (pause <= 0) return true;
    waits();
    if (lane.pausedUntil > now + maxWaitMs) {
      this.finish(keyId, 0, false);
      return false;
    }
    // A timer counts from the event loop's time, which may lag: it can fire early, so wait again.
    for (let left = pause; left > 0; left = lane.pausedUntil - performance.now())
      await new Promise((resolve) => setTimeout(resolve, left));
    return true;
  }

  /** The key's paced call ended after holding cold work `tookMs` (`ran`): the next one waits as long after now. */
  finish(keyId: string, tookMs: number, ran = true): void {
    const lane = this.lanes.get(keyId);
    if (!lane) return;
    if (ran) lane.pausedUntil = performance.now() + tookMs;
    const release = lane.release;
    lane.release = undefined;
    // The gate hands its place straight to the next call in line, so none arriving meanwhile takes it.
    release?.();
  }

  /** Keys with a lane now (for tests and the sweep's bound). */
  get trackedKeys(): number {
    return this.lanes.size;
  }

  /** Forgets idle lanes whose pause is over, at most once a second, so memory follows paced keys. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 1000) return;
    this.sweptAt = now;
    for (const [keyId, lane] of this.lanes) if (lane.gate.idle && lane.pausedUntil <= now) this.lanes.delete(keyId);
  }
}
