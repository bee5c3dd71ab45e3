/** Why a call was not let in: the queue was full, or its wait ran past the deadline. */
export type GateRefusal = 'queue-full' | 'waited-too-long';

interface Waiter {
  readonly admit: () => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * At most `running` calls of one key at once; the next ones wait in a first-in, first-out queue
 * of at most `queued`, each for at most `maxWaitMs`. `enter` resolves to a release function, or
 * to a refusal; the caller must release exactly once.
 */
export class InFlightGate {
  private active = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly running: number,
    readonly queued: number,
    readonly maxWaitMs: number,
  ) {}

  get idle(): boolean {
    return this.active === 0 && this.waiting.length === 0;
  }

  /** `maxWaitMs` this call may wait, if not the gate's. */
  async enter(maxWaitMs = this.maxWaitMs): Promise<(() => void) | GateRefusal> {
    if (this.active < this.running) {
      this.active++;
      return this.releaser();
    }
    if (this.waiting.length >= this.queued) return 'queue-full';
    return new Promise((resolve) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(waiter.timer);
          this.active++;
          resolve(this.releaser());
        },
        timer: setTimeout(() => {
          const at = this.waiting.indexOf(waiter);
          if (at >= 0) this.waiting.splice(at, 1);
          resolve('waited-too-long');
        }, maxWaitMs),
      };
      this.waiting.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.admit();
    };
  }
}
