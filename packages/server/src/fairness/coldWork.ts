import { setTimeout as sleep, setImmediate as yieldToIo } from 'node:timers/promises';
import { rateLimited } from './keyFairness.js';

export interface ColdWorkOptions {
  /** Cold calls a second one key may start while other keys are served (default 100). */
  readonly perSecond?: number;
  /** Cold calls one key may start at once beyond that rate (default 20). */
  readonly burst?: number;
  /** How long a cold call waits for its turn at most (default 3000 ms). */
  readonly maxWaitMs?: number;
  /** Milliseconds now, fractional (default performance.now). */
  readonly now?: () => number;
}

interface Lane {
  running: number;
  readonly queue: Array<() => void>;
  /** Cold calls the key may start now. */
  tokens: number;
  at: number;
}

/**
 * Cold work: a call whose filter combination this server has not kept (its match set built from
 * the index, its quotes read from PostgreSQL). While other keys' calls arrive, one key's cold calls
 * run one at a time, each after the I/O already waiting (other keys' cheap calls go first), and
 * start at most `perSecond` a second after a burst of `burst`: the key that sends them waits for
 * them, not everyone else. A key served alone is not held back. Calls are counted, not timed: a
 * call's time on a busy server is mostly other calls', and would hold back the wrong key.
 */
export class ColdWork {
  private readonly lanes = new Map<string, Lane>();
  private readonly perSecond: number;
  private readonly burst: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private sweptAt: number;
  /** Calls that waited for their turn, and those refused at the deadline (for the metrics). */
  waited = 0;
  refused = 0;

  constructor(options: ColdWorkOptions = {}) {
    this.perSecond = options.perSecond ?? 100;
    this.burst = options.burst ?? 20;
    this.maxWaitMs = options.maxWaitMs ?? 3000;
    this.now = options.now ?? (() => performance.now());
    this.sweptAt = this.now();
  }

  /** Runs `work` as the key's cold work: at once when `contended` is false, else in its turn. */
  async run<T>(keyId: string, contended: boolean, work: () => Promise<T>): Promise<T> {
    this.sweep();
    const lane = this.lane(keyId);
    if (contended) await this.turn(lane);
    else lane.running++;
    try {
      return await work();
    } finally {
      this.release(lane);
    }
  }

  /** Keys with cold work running, waiting or owed (for tests and the bound on memory). */
  get trackedKeys(): number {
    return this.lanes.size;
  }

  private lane(keyId: string): Lane {
    let lane = this.lanes.get(keyId);
    if (!lane) {
      lane = { running: 0, queue: [], tokens: this.burst, at: this.now() };
      this.lanes.set(keyId, lane);
    }
    return lane;
  }

  /** Waits until the key runs no other cold work and its rate allows one more. */
  private async turn(lane: Lane): Promise<void> {
    const deadline = this.now() + this.maxWaitMs;
    if (lane.running > 0) {
      this.waited++;
      // Admitted with the place of the call before it (see release).
      await this.queued(lane, deadline);
    } else {
      lane.running++;
    }
    try {
      this.refill(lane);
      if (lane.tokens < 1) {
        const waitMs = ((1 - lane.tokens) / this.perSecond) * 1000;
        if (this.now() + waitMs > deadline) throw this.refusal(waitMs);
        this.waited++;
        await sleep(Math.ceil(waitMs));
        this.refill(lane);
      }
      lane.tokens -= 1;
      // What already arrived (other keys' calls among it) runs before this call's work.
      await yieldToIo();
    } catch (error) {
      this.release(lane);
      throw error;
    }
  }

  /** Hands the place to the next waiting call, so none starts between them. */
  private release(lane: Lane): void {
    const next = lane.queue.shift();
    if (next) next();
    else lane.running--;
  }

  private queued(lane: Lane, deadline: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          const at = lane.queue.indexOf(admit);
          if (at >= 0) lane.queue.splice(at, 1);
          reject(this.refusal(this.maxWaitMs));
        },
        Math.max(0, deadline - this.now()),
      );
      lane.queue.push(admit);
    });
  }

  private refusal(waitMs: number) {
    this.refused++;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    return rateLimited(
      `This key's calls on filter combinations new to the server are over ${this.perSecond} a second while other keys are served; retry in ${seconds} s.`,
      seconds,
    );
  }

  /** Forgets idle keys whose rate is whole again, at most once a second. */
  private sweep(): void {
    const now = this.now();
    if (now - this.sweptAt < 1000) return;
    this.sweptAt = now;
    for (const [keyId, lane] of this.lanes) {
      this.refill(lane);
      if (lane.running === 0 && lane.tokens >= this.burst) this.lanes.delete(keyId);
    }
  }

  private refill(lane: Lane): void {
    const now = this.now();
    lane.tokens = Math.min(this.burst, lane.tokens + ((now - lane.at) / 1000) * this.perSecond);
    lane.at = now;
  }
}
