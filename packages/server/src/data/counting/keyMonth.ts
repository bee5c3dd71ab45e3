import type { CountJournal } from './countJournal.js';

/** A call admitted by the counter: it holds a place until it is answered. */
export interface CallSlot {
  /** The call was answered at a counted status: counted here, written at the next flush. Returns the month's calls, this one included. */
  served(): number;
  /** The call was not answered at a counted status: its place goes back, nothing is counted. */
  release(): void;
  /**
   * Its answer is ready: the call goes into the journal, and `send` (the answer's write, which must
   * not throw) runs once the line is written, so a kill never takes an answer sent and not
   * journaled (write-ahead; at once without a journal).
   */
  journal(send: () => void): void;
}

/** Outcome of admitting one call: a slot to settle once it is answered, or the allowance is used up. */
export type CounterOutcome = { granted: true; slot: CallSlot } | { granted: false };

/** A COMMIT sent without an answer: whether it took effect is known only from its transaction id. */
export class UnansweredCommit extends Error {
  constructor(
    readonly xid: string,
    readonly failure: unknown,
  ) {
    super('COMMIT unanswered');
  }
}

export interface FlushRow {
  key_id: string;
  month: string;
  calls: number;
  xid: string;
}

export interface LeaseRow {
  key_id: string;
  month: string;
  reserved: number;
  granted: number;
  remaining: number;
  /** Places of the allowance in other live servers' leases. */
  others: number;
}

/** One key's month on this server: what it answered and has not written, and its lease. */
export class KeyMonth implements CallSlot {
  /** monthly_usage.calls as the last round returned it: every server's flushed calls. */
  flushedCalls = 0;
  /** Calls answered here and not yet in a round. */
  unflushed = 0;
  /** Calls answered here whose round is in flight, or whose COMMIT is in doubt. */
  sending = 0;
  /** Calls admitted and not yet answered: each holds a place of the lease. */
  running = 0;
  /** The lease (capped keys): calls this server may answer beyond flushedCalls, as the database holds it. */
  reserved = 0;
  /** Until when the lease may be used (performance.now ms); 0 while a round about it is in doubt. */
  trustedUntil = 0;
  /** Calls asked since the last timed flush, and in the interval before it. */
  askedSinceFlush = 0;
  demand = 0;
  /** The last round found nothing of the allowance left for this server (for mayGrant), under this limit. */
  exhaustedUnder: number | null = null;
  lastUsedAt = 0;
  readonly granted: CounterOutcome = { granted: true, slot: this };

  constructor(
    readonly keyId: string,
    readonly monthKey: string,
    public limit: number | null,
    private readonly journalFile: CountJournal | undefined,
  ) {}

  free(now: number): number {
    if (now >= this.trustedUntil) return 0;
    return this.reserved - this.unflushed - this.sending - this.running;
  }

  served(): number {
    this.running--;
    this.unflushed++;
    return this.flushedCalls + this.unflushed + this.sending;
  }

  release(): void {
    this.running--;
  }

  journal(send: () => void): void {
    if (this.journalFile) this.journalFile.record(this.keyId, this.monthKey, send);
    else send();
  }

  get idle(): boolean {
    return this.unflushed === 0 && this.sending === 0 && this.running === 0 && this.reserved === 0;
  }
}

/** What a round asks the counter's rounds: a timed flush, places for waiting calls, or a count to read. */
export type RoundItem = { kind: 'flush' } | { kind: 'lease'; entry: KeyMonth } | { kind: 'read'; entry: KeyMonth };
export type RoundAnswer = 'granted' | 'refused' | 'again' | 'elsewhere' | number;

/** What one round sent for one key's month, to apply or undo once its outcome is known. */
export interface Sent {
  readonly entry: KeyMonth;
  readonly served: number;
  readonly giveBack: number;
}

/** A round whose COMMIT got no answer: committed or not is asked later (txid_status). */
export interface DoubtfulRound {
  readonly xid: string;
  readonly sent: readonly Sent[];
  /** Why the COMMIT went unanswered: what a call waiting on this lease is answered meanwhile. */
  readonly failure: unknown;
}

export const flushItem: RoundItem = { kind: 'flush' };

/** A round that did not commit: its calls are written by the next, its given-back places are the lease's again. */
export function undoRound(sent: readonly Sent[]): void {
  for (const { entry, served, giveBack } of sent) {
    entry.sending -= served;
    entry.unflushed += served;
    entry.reserved += giveBack;
  }
}
