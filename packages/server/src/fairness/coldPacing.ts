interface Lane {
  /** A paced call of the key holds its turn (it may be in its pause, waiting for a place or running). */
  busy: boolean;
  readonly waiting: Array<() => void>;
  /** When the key's next paced call may start: its last one's end plus what it took. */
  pausedUntil: number;
}

export interface ColdPacingOptions {
  /** Milliseconds now (default performance.now). */
  readonly now?: () => number;
}

/**
 * The pace of a key leading the server's cold calls while other keys are served (see ColdShares):
 * its calls run one at a time, and each starts no sooner after the previous one ended than that one
 * took, so the key holds cold work at most about half the time and the event loop has the rest for
 * the others. A call that cannot start before its deadline is refused by the caller.
 */
export class ColdPacing {
  private readonly lanes = new Map<string, Lane>();
  private readonly now: () => number;
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(options: ColdPacingOptions = {}) {
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Resolves true once the call may take its place (calling `waits` first if it has to wait in line
   * or in the pause), false if `maxWaitMs` passes first. Every true must be followed by `finish`.
   */
  async enter(keyId: string, maxWaitMs: number, waits: () => void = () => undefined): Promise<boolean> {
    const now = this.now();
    this.sweep(now);
    let lane = this.lanes.get(keyId);
    if (!lane) {
      lane = { busy: false, waiting: [], pausedUntil: now };
      this.lanes.set(keyId, lane);
    }
    const deadline = now + maxWaitMs;
    if (!lane.busy) lane.busy = true;
    else {
      waits();
      if (!(await this.inLine(lane, maxWaitMs))) return false;
    }
    const pause = lane.pausedUntil - this.now();
    if (pause <= 0) return true;
    waits();
    if (lane.pausedUntil > deadline) {
      this.finish(keyId, 0, false);
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    return true;
  }

  /** The key's paced call ended after holding cold work `tookMs`: the next one waits as long after now. */
  finish(keyId: string, tookMs: number, ran = true): void {
    const lane = this.lanes.get(keyId);
    if (!lane) return;
    if (ran) lane.pausedUntil = this.now() + tookMs;
    // The turn passes straight to the next call in line, so none arriving meanwhile takes it.
    const next = lane.waiting.shift();
    if (next) next();
    else lane.busy = false;
  }

  /** Keys with a lane now (for tests and the sweep's bound). */
  get trackedKeys(): number {
    return this.lanes.size;
  }

  /** Resolves true when the lane's turn passes to this call (it is then busy for it), false at the deadline. */
  private inLine(lane: Lane, maxWaitMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const start = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = lane.waiting.indexOf(start);
        if (at >= 0) lane.waiting.splice(at, 1);
        resolve(false);
      }, maxWaitMs);
      lane.waiting.push(start);
    });
  }

  /** Forgets idle lanes whose pause is over, at most once a second, so memory follows paced keys. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 1000) return;
    this.sweptAt = now;
    for (const [keyId, lane] of this.lanes)
      if (!lane.busy && lane.waiting.length === 0 && lane.pausedUntil <= now) this.lanes.delete(keyId);
  }
}
