interface Lane<T> {
  readonly keyId: string;
  readonly waiting: T[];
  /** Calls the key may still start in its current turn (deficit round robin, every call costing one). */
  credit: number;
}

/**
 * Places for at most `bound` pieces of work at once, shared across keys: while fewer run, any
 * arrival starts at once (work-conserving); once `bound` run, arrivals wait in their key's line and
 * each freed place goes to the lines in turn, `quantum` calls a turn (deficit round robin with
 * every call costing one: calls are counted, not timed). A key with a deep line so gets a place as
 * often as any other key waiting, and a key arriving behind it waits at most one turn of each line
 * ahead. Synchronous and free of timers and I/O: the caller starts what `arrive` and `finish` hand
 * back.
 */
export class FairTurns<T> {
  private readonly lanes = new Map<string, Lane<T>>();
  /** Keys with calls waiting, in turn order; the first holds the current turn. */
  private readonly turns: Lane<T>[] = [];
  private runningNow = 0;
  private waitingNow = 0;

  constructor(
    readonly bound: number,
    readonly quantum = 1,
  ) {
    if (!(bound >= 1) || !(quantum >= 1)) throw new RangeError('bound and quantum must be at least 1');
  }

  /** Work running now (places taken). */
  get running(): number {
    return this.runningNow;
  }

  /** Calls waiting for a place. */
  get waiting(): number {
    return this.waitingNow;
  }

  /** Keys with calls waiting (the memory held follows them). */
  get waitingKeys(): number {
    return this.lanes.size;
  }

  /**
   * A call of `keyId` arrives: true when it starts now (it holds a place until `finish`), false when
   * it waits as `item`. `mayExceed` starts it even at the bound, provided nobody waits (a key
   * served alone); it still holds a place, so the calls arriving after it see it.
   */
  arrive(keyId: string, item: T, mayExceed = false): boolean {
    if (this.runningNow < this.bound || (mayExceed && this.waitingNow === 0)) {
      this.runningNow++;
      return true;
    }
    let lane = this.lanes.get(keyId);
    if (!lane) {
      lane = { keyId, waiting: [], credit: 0 };
      this.lanes.set(keyId, lane);
      this.turns.push(lane);
      if (this.turns.length === 1) lane.credit = this.quantum;
    }
    lane.waiting.push(item);
    this.waitingNow++;
    return false;
  }

  /**
   * A piece of work finished: its place goes to the next waiting call in turn, handed back (it now
   * holds the place), or is freed when nobody waits.
   */
  finish(): T | undefined {
    if (this.runningNow === 0) throw new Error('finish without a running call');
    const next = this.next();
    if (next === undefined) this.runningNow--;
    return next;
  }

  /** A waiting call gives up (its deadline passed): true when it was still waiting. */
  withdraw(keyId: string, item: T): boolean {
    const lane = this.lanes.get(keyId);
    const at = lane?.waiting.indexOf(item) ?? -1;
    if (!lane || at < 0) return false;
    lane.waiting.splice(at, 1);
    this.waitingNow--;
    if (lane.waiting.length === 0) this.leave(lane);
    return true;
  }

  private next(): T | undefined {
    for (;;) {
      const lane = this.turns[0];
      if (!lane) return undefined;
      if (lane.credit >= 1) {
        lane.credit--;
        const item = lane.waiting.shift() as T;
        this.waitingNow--;
        if (lane.waiting.length === 0) this.leave(lane);
        return item;
      }
      // Its turn is used up: it goes to the back, and the next line's turn begins.
      this.turns.push(this.turns.shift() as Lane<T>);
      this.beginTurn();
    }
  }

  /** A line with nobody waiting leaves the turns (and forgets what it was owed, as DRR does). */
  private leave(lane: Lane<T>): void {
    this.lanes.delete(lane.keyId);
    const at = this.turns.indexOf(lane);
    this.turns.splice(at, 1);
    if (at === 0) this.beginTurn();
  }

  private beginTurn(): void {
    const head = this.turns[0];
    if (head) head.credit += this.quantum;
  }
}
