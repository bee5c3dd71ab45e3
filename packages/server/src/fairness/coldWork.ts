import { setImmediate as yieldToIo } from 'node:timers/promises';
import { ColdPacing } from './coldPacing.js';
import { ColdShares } from './coldShares.js';
import { FairTurns } from './fairTurns.js';
import { rateLimited } from './keyFairness.js';

export interface ColdWorkOptions {
  /** Cold calls running at once on this server before the next ones wait (default `coldWorkAtOnce()`). */
  readonly atOnce?: number;
  /** How long a cold call waits for its turn at most (default 3000 ms). */
  readonly maxWaitMs?: number;
}

/**
 * The default bound on cold calls at once: half the database pool, so cold calls never hold the
 * connections the cheap ones need. A place is held across the call's yield to the I/O already
 * waiting and across its database reads, not only while it runs on the event loop: a bound by
 * cores left them idle (decision 0066).
 */
export function coldWorkAtOnce(poolSize: number): number {
  return Math.max(1, Math.floor(poolSize / 2));
}

/**
 * Cold work: a call whose filter combination this server has not kept (its match set built from
 * the index, its quotes read from PostgreSQL). At most `atOnce` of them run at once while other
 * keys are served; below that no call waits, whichever key sends it. At the bound, cold calls wait
 * and the places that free up go to the waiting keys in turn (FairTurns), so a key flooding new
 * combinations gets one place in each round as every other key with cold work does, and cheap calls
 * (kept combinations, unfiltered) never wait here. A key served alone is not held back. While
 * others are served, a key sending most of the cold calls (ColdShares) is paced (ColdPacing): one
 * at a time, at most about half the time, so its calls' parsing, reads and answers leave the event
 * loop to the others (decision 0067). A call whose turn does not come within `maxWaitMs` is refused
 * 429 `rate-limited`.
 */
export class ColdWork {
  private readonly turns: FairTurns<() => void>;
  private readonly shares = new ColdShares();
  private readonly pacing = new ColdPacing();
  private readonly maxWaitMs: number;
  /** Calls that waited (for their pace or a place), and those refused at the deadline (for the metrics). */
  waited = 0;
  refused = 0;

  constructor(options: ColdWorkOptions = {}) {
    // 20: the default DATABASE_POOL_SIZE (the server passes its own).
    this.turns = new FairTurns(options.atOnce ?? coldWorkAtOnce(20));
    this.maxWaitMs = options.maxWaitMs ?? 3000;
  }

  /** The bound on cold calls at once. */
  get atOnce(): number {
    return this.turns.bound;
  }

  /**
   * Runs `work` as the key's cold work: at once below the bound or when `contended` is false, else
   * in its turn; paced while the key leads the cold calls and `contended`.
   */
  async run<T>(keyId: string, contended: boolean, work: () => Promise<T>): Promise<T> {
    const arrivedAt = performance.now();
    this.shares.note(keyId, arrivedAt);
    const paced = contended && this.shares.leads(keyId, arrivedAt);
    let waiting = false;
    const waits = () => {
      if (!waiting) this.waited++;
      waiting = true;
    };
    if (paced && !(await this.pacing.enter(keyId, this.maxWaitMs, waits))) throw this.refusal(true);
    try {
      // One deadline for the whole wait: its pace, then its place.
      await this.place(keyId, contended, waits, arrivedAt + this.maxWaitMs - performance.now(), paced);
    } catch (error) {
      if (paced) this.pacing.finish(keyId, 0, false);
      throw error;
    }
    const startedAt = performance.now();
    try {
      // What already arrived (other keys' cheap calls among it) runs before this call's work.
      if (contended) await yieldToIo();
      return await work();
    } finally {
      this.turns.finish()?.();
      if (paced) this.pacing.finish(keyId, performance.now() - startedAt);
    }
  }

  /** Whether the key's cold calls are paced now, were it contended. */
  paces(keyId: string): boolean {
    return this.shares.leads(keyId, performance.now());
  }

  /** Keys with a lane of paced calls (the memory held follows them). */
  get pacedKeys(): number {
    return this.pacing.trackedKeys;
  }

  /** Keys with cold calls waiting (the memory held follows them). */
  get trackedKeys(): number {
    return this.turns.waitingKeys;
  }

  /** Resolves once the call holds a place (calling `waits` if it has to wait); rejects with 429 at the deadline. */
  private place(
    keyId: string,
    contended: boolean,
    waits: () => void,
    maxWaitMs: number,
    paced: boolean,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        resolve();
      };
      if (this.turns.arrive(keyId, admit, !contended)) {
        resolve();
        return;
      }
      waits();
      const timer = setTimeout(
        () => {
          if (this.turns.withdraw(keyId, admit)) reject(this.refusal(paced));
        },
        Math.max(0, maxWaitMs),
      );
    });
  }

  private refusal(paced: boolean) {
    this.refused++;
    const seconds = Math.max(1, Math.ceil(this.maxWaitMs / 1000));
    const rule = paced
      ? 'This key sends most calls on filter combinations new to this server while other keys are served, so they run one at a time, at most half the time'
      : `Calls on filter combinations new to this server run ${this.atOnce} at once, in turn across keys`;
    return rateLimited(
      `${rule}; this call's turn did not come within ${this.maxWaitMs} ms; retry in ${seconds} s.`,
      seconds,
    );
  }
}
