/** The callers asking for one thing (a key, a rank, a key's month) in the next round. */
export interface Lane<Item> {
  readonly item: Item;
  /** How many callers wait on this lane, in arrival order. */
  readonly callers: number;
}

/** Each caller's answer once a round has run; throwing rejects that lane's callers. */
export type RoundAnswers<Item, Answer> = (lane: Lane<Item>, caller: number) => Answer;

export interface RoundOptions<Item, Answer> {
  /** One round: usually one statement for all its lanes. A rejection rejects all of them. */
  run(round: readonly Lane<Item>[]): Promise<RoundAnswers<Item, Answer>>;
  /** Rounds in flight at once (default 1). */
  roundsAtOnce?: number;
  /** Lanes in one round at most (default unbounded); the rest wait for the next. */
  maxLanes?: number;
  /** Whether a lane may join the round taken so far; one that may not waits for the next. */
  joins?(item: Item, round: readonly Lane<Item>[]): boolean;
  /** When a round fails, fail the callers still waiting too: they would only meet the same failure. */
  failWaitingWithRound?: boolean;
}

interface Waiter<Answer> {
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

interface WaitingLane<Item, Answer> extends Lane<Item> {
  callers: number;
  readonly waiters: Waiter<Answer>[];
}

/**
 * Batches callers into rounds. A caller arriving while fewer than `roundsAtOnce` rounds run goes
 * out at once (batching adds no wait); callers arriving meanwhile wait and the next round takes
 * all of them, callers asking for the same thing sharing one lane. A caller only ever joins a
 * round that has not started, so its answer comes from a statement begun after it asked.
 */
export class StatementRounds<Item, Answer> {
  // Each round's lanes leave with a new Map rather than being deleted from a long-lived one: see
  // "Memory on the request path" in the server README.
  private waiting = new Map<unknown, WaitingLane<Item, Answer>>();
  private running = 0;
  private readonly roundsAtOnce: number;
  private readonly maxLanes: number;

  constructor(private readonly options: RoundOptions<Item, Answer>) {
    this.roundsAtOnce = options.roundsAtOnce ?? 1;
    this.maxLanes = options.maxLanes ?? Number.POSITIVE_INFINITY;
  }

  /** Joins the lane `laneKey` (created with `item` when new) of the next round. */
  ask(laneKey: unknown, item: Item): Promise<Answer> {
    let lane = this.waiting.get(laneKey);
    if (lane === undefined) {
      lane = { item, callers: 0, waiters: [] };
      this.waiting.set(laneKey, lane);
    }
    lane.callers++;
    const { waiters } = lane;
    const answer = new Promise<Answer>((resolve, reject) => waiters.push({ resolve, reject }));
    this.startRounds();
    return answer;
  }

  private startRounds(): void {
    while (this.running < this.roundsAtOnce && this.waiting.size > 0) {
      const round = this.takeRound();
      this.running++;
      void this.settle(round).finally(() => {
        this.running--;
        this.startRounds();
      });
    }
  }

  private takeRound(): WaitingLane<Item, Answer>[] {
    const { joins } = this.options;
    if (joins === undefined && this.waiting.size <= this.maxLanes) {
      const round = [...this.waiting.values()];
      this.waiting = new Map();
      return round;
    }
    const round: WaitingLane<Item, Answer>[] = [];
    const left = new Map<unknown, WaitingLane<Item, Answer>>();
    for (const [laneKey, lane] of this.waiting) {
      if (round.length < this.maxLanes && (joins === undefined || joins(lane.item, round))) round.push(lane);
      else left.set(laneKey, lane);
    }
    this.waiting = left;
    return round;
  }

  private async settle(round: WaitingLane<Item, Answer>[]): Promise<void> {
    let answers: RoundAnswers<Item, Answer>;
    try {
      answers = await this.options.run(round);
    } catch (error) {
      const failed = this.options.failWaitingWithRound ? [...round, ...this.waiting.values()] : round;
      if (this.options.failWaitingWithRound) this.waiting = new Map();
      for (const lane of failed) for (const waiter of lane.waiters) waiter.reject(error);
      return;
    }
    for (const lane of round) {
      lane.waiters.forEach((waiter, caller) => {
        try {
          waiter.resolve(answers(lane, caller));
        } catch (error) {
          waiter.reject(error);
        }
      });
    }
  }
}
