import type pg from 'pg';

/** The outcome of a call the monthly counter keeps; every other outcome is a problem type. */
export const servedOutcome = 'served';
/** The one history bucket of every call whose key was missing or not recognised. */
export const unknownKeyBucket = 'unknown';

const hourMs = 3_600_000;

/** Calls by key, then by outcome, in one hour. */
type HourCounts = Map<string, Map<string, number>>;

// Rows are upserted in key, period and outcome order, the same in every process, so two servers'
// flushes cannot deadlock on each other's rows.
const flushStatement = `
  INSERT INTO usage_history AS h (key_id, span, period_start, outcome, calls)
  SELECT key_id, 'hour', period_start, outcome, calls
  FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::bigint[]) AS row(key_id, period_start, outcome, calls)
  ORDER BY key_id, period_start, outcome
  ON CONFLICT (key_id, span, period_start, outcome) DO UPDATE SET calls = h.calls + excluded.calls`;

/**
 * Each key's calls per hour and outcome, counted in memory and added to `usage_history` by one
 * statement per flush (every `flushMs`, and at close): a call costs two Map look-ups and an
 * increment, never a database write. A flush that fails keeps its counts for the next one, so
 * only a killed process loses history: what it counted since its last flush.
 */
export class UsageHistory {
  private hours = new Map<number, HourCounts>();
  private currentHourStart = Number.NaN;
  private current: HourCounts = new Map();
  private flushing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pool: pg.Pool,
    flushMs: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  /** One call of `keyId` (or unknownKeyBucket) ended with `outcome` at `nowMs`. */
  record(keyId: string, outcome: string, nowMs: number): void {
    const hourStart = nowMs - (nowMs % hourMs);
    if (hourStart !== this.currentHourStart) {
      this.currentHourStart = hourStart;
      this.current = this.hourCounts(hourStart);
    }
    addCalls(this.current, keyId, outcome, 1);
  }

  /** Calls counted and not yet written (what a kill now would lose). */
  pendingCalls(): number {
    let total = 0;
    for (const hour of this.hours.values())
      for (const outcomes of hour.values()) for (const calls of outcomes.values()) total += calls;
    return total;
  }

  /** Adds what was counted to the table in one statement; one flush at a time (a call meanwhile waits for it). */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flushing;
    await this.flush();
  }

  private hourCounts(hourStart: number): HourCounts {
    let counts = this.hours.get(hourStart);
    if (counts === undefined) {
      counts = new Map();
      this.hours.set(hourStart, counts);
    }
    return counts;
  }

  private async write(): Promise<void> {
    if (this.hours.size === 0) return;
    // A new collection each round (the request path's rule for long-lived Maps: server README).
    const taken = this.hours;
    this.hours = new Map();
    this.currentHourStart = Number.NaN;
    const keyIds: string[] = [];
    const periods: string[] = [];
    const outcomes: string[] = [];
    const calls: number[] = [];
    for (const [hourStart, byKey] of taken)
      for (const [keyId, byOutcome] of byKey)
        for (const [outcome, count] of byOutcome) {
          keyIds.push(keyId);
          periods.push(new Date(hourStart).toISOString());
          outcomes.push(outcome);
          calls.push(count);
        }
    try {
      await this.pool.query(flushStatement, [keyIds, periods, outcomes, calls]);
    } catch (error) {
      // Kept for the next flush: the statement is one transaction, so nothing of it was added.
      for (let index = 0; index < keyIds.length; index += 1)
        addCalls(this.hourCounts(Date.parse(periods[index]!)), keyIds[index]!, outcomes[index]!, calls[index]!);
      this.onError(error);
    }
  }
}

function addCalls(counts: HourCounts, keyId: string, outcome: string, calls: number): void {
  let byOutcome = counts.get(keyId);
  if (byOutcome === undefined) {
    byOutcome = new Map();
    counts.set(keyId, byOutcome);
  }
  byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + calls);
}
