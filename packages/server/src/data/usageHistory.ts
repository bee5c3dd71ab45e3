import type pg from 'pg';
import { calendarMonthOf } from '../domain/calendarMonth.js';

/** The outcome of a call the monthly counter keeps; every other outcome is a problem type. */
export const servedOutcome = 'served';
/** The one history bucket of every call whose key was missing or not recognised. */
export const unknownKeyBucket = 'unknown';

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
/** Distinct values kept per key, kind and day between two flushes: a flood of new values cannot grow memory past it. */
const maxSightingsPerFlush = 1000;

/** Calls by key, then by outcome, in one hour. */
type HourCounts = Map<string, Map<string, number>>;

/** What a served call was seen with: its client network, browser origin, or filter page. */
export type SightingKind = 'network' | 'origin' | 'page';

/** Distinct values by key, then by kind, in one UTC day. */
type DaySightings = Map<string, Map<SightingKind, Set<string>>>;

/** Corpus positions per bitset chunk: 1 KB, the width of usage_coverage.bits. */
export const coverageChunkBits = 8192;
const chunkShift = 13;
/** Chunks by key, each the positions served in one month, one bit a position. */
type MonthCoverage = Map<string, Map<number, Uint8Array>>;

// Rows are upserted in key, period and outcome order, the same in every process, so two servers'
// flushes cannot deadlock on each other's rows.
const flushStatement = `
  INSERT INTO usage_history AS h (key_id, span, period_start, outcome, calls)
  SELECT key_id, 'hour', period_start, outcome, calls
  FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::bigint[]) AS row(key_id, period_start, outcome, calls)
  ORDER BY key_id, period_start, outcome
  ON CONFLICT (key_id, span, period_start, outcome) DO UPDATE SET calls = h.calls + excluded.calls`;

// Distinct values: a value already there for the key, day and kind is not news.
const sightingsStatement = `
  INSERT INTO usage_sightings (key_id, day, kind, value)
  SELECT key_id, day, kind, value
  FROM unnest($1::text[], $2::date[], $3::text[], $4::text[]) AS row(key_id, day, kind, value)
  ORDER BY key_id, day, kind, value
  ON CONFLICT DO NOTHING`;

// Bits served: OR-ed into what other servers wrote, so the merge is exact in any order.
const coverageStatement = `
  INSERT INTO usage_coverage AS c (key_id, month, chunk, bits)
  SELECT key_id, month, chunk, ('x' || encode(bits, 'hex'))::bit(${coverageChunkBits})
  FROM unnest($1::text[], $2::date[], $3::integer[], $4::bytea[]) AS row(key_id, month, chunk, bits)
  ORDER BY month, key_id, chunk
  ON CONFLICT (month, key_id, chunk) DO UPDATE SET bits = c.bits | excluded.bits`;

/**
 * Each key's calls per hour and outcome, the distinct networks, origins and filter pages its
 * served calls were seen with per day, and the corpus positions they served per month, kept in
 * memory and added to `usage_history`, `usage_sightings` and `usage_coverage` by one statement
 * each per flush (every `flushMs`, and at close): a call
 * costs Map look-ups and an increment, never a database write. A flush that fails keeps its counts for the next one, so
 * only a killed process loses history: what it counted since its last flush.
 */
export class UsageHistory {
  private hours = new Map<number, HourCounts>();
  private currentHourStart = Number.NaN;
  private current: HourCounts = new Map();
  private sightings = new Map<number, DaySightings>();
  private coverage = new Map<string, MonthCoverage>();
  private coverageMonth = { key: '', from: 0, until: 0 };
  private flushing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pool: pg.Pool,
    flushMs: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    // A slow database makes flushes wait for each other, never pile up.
    this.timer = setInterval(() => {
      if (this.flushing === undefined) void this.flush();
    }, flushMs);
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

  /** A served call of `keyId` was seen with this network, origin or page (each distinct value is written once a day). */
  sight(keyId: string, kind: SightingKind, value: string, nowMs: number): void {
    const dayStart = nowMs - (nowMs % dayMs);
    let day = this.sightings.get(dayStart);
    if (day === undefined) {
      day = new Map();
      this.sightings.set(dayStart, day);
    }
    let kinds = day.get(keyId);
    if (kinds === undefined) {
      kinds = new Map();
      day.set(keyId, kinds);
    }
    let values = kinds.get(kind);
    if (values === undefined) {
      values = new Set();
      kinds.set(kind, values);
    }
    if (values.size < maxSightingsPerFlush) values.add(value);
  }

  /**
   * A served call of `keyId` answered with the quotes at these corpus positions (ranks): each sets
   * its bit in the key's bitset of the month, the chunk of 8,192 positions allocated when first hit.
   */
  cover(keyId: string, ranks: readonly number[], nowMs: number): void {
    if (ranks.length === 0) return;
    let month = this.coverageMonth;
    if (nowMs < month.from || nowMs >= month.until) {
      const found = calendarMonthOf(new Date(nowMs));
      month = { key: found.key, from: found.start.getTime(), until: found.next.getTime() };
      this.coverageMonth = month;
    }
    let keys = this.coverage.get(month.key);
    if (keys === undefined) {
      keys = new Map();
      this.coverage.set(month.key, keys);
    }
    let chunks = keys.get(keyId);
    if (chunks === undefined) {
      chunks = new Map();
      keys.set(keyId, chunks);
    }
    for (const rank of ranks) {
      const chunk = rank >>> chunkShift;
      let bits = chunks.get(chunk);
      if (bits === undefined) {
        bits = new Uint8Array(coverageChunkBits / 8);
        chunks.set(chunk, bits);
      }
      const offset = rank & (coverageChunkBits - 1);
      bits[offset >>> 3]! |= 0x80 >>> (offset & 7);
    }
  }

  /** Bytes the bitsets not yet written hold: at most a chunk per 8,192 positions per key served since the last flush. */
  coverageBytes(): number {
    let bytes = 0;
    for (const keys of this.coverage.values())
      for (const chunks of keys.values()) bytes += (chunks.size * coverageChunkBits) / 8;
    return bytes;
  }

  /** Calls counted and not yet written (what a kill now would lose). */
  pendingCalls(): number {
    let total = 0;
    for (const hour of this.hours.values())
      for (const outcomes of hour.values()) for (const calls of outcomes.values()) total += calls;
    return total;
  }

  /** Adds what was counted so far to the tables; a flush asked for during another runs after it. */
  flush(): Promise<void> {
    const next = (this.flushing ?? Promise.resolve()).then(() => this.write());
    const tracked: Promise<void> = next.finally(() => {
      if (this.flushing === tracked) this.flushing = undefined;
    });
    this.flushing = tracked;
    return tracked;
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async writeSightings(): Promise<void> {
    if (this.sightings.size === 0) return;
    const taken = this.sightings;
    this.sightings = new Map();
    const columns: [string[], string[], string[], string[]] = [[], [], [], []];
    for (const [dayStart, byKey] of taken)
      for (const [keyId, byKind] of byKey)
        for (const [kind, values] of byKind)
          for (const value of values) {
            columns[0].push(keyId);
            columns[1].push(new Date(dayStart).toISOString().slice(0, 10));
            columns[2].push(kind);
            columns[3].push(value);
          }
    try {
      await this.pool.query(sightingsStatement, columns);
    } catch (error) {
      // Kept for the next flush, as the counts are.
      for (let index = 0; index < columns[0].length; index += 1)
        this.sight(
          columns[0][index]!,
          columns[2][index] as SightingKind,
          columns[3][index]!,
          Date.parse(columns[1][index]!),
        );
      this.onError(error);
    }
  }

  private async writeCoverage(): Promise<void> {
    if (this.coverage.size === 0) return;
    const taken = this.coverage;
    this.coverage = new Map();
    const columns: [string[], string[], number[], Buffer[]] = [[], [], [], []];
    for (const [month, keys] of taken)
      for (const [keyId, chunks] of keys)
        for (const [chunk, bits] of chunks) {
          columns[0].push(keyId);
          columns[1].push(month);
          columns[2].push(chunk);
          columns[3].push(Buffer.from(bits.buffer, bits.byteOffset, bits.byteLength));
        }
    try {
      await this.pool.query(coverageStatement, columns);
    } catch (error) {
      // Kept for the next flush: OR-ed into whatever was covered since.
      for (const [month, keys] of taken) {
        const kept = this.coverage.get(month) ?? new Map<string, Map<number, Uint8Array>>();
        this.coverage.set(month, kept);
        for (const [keyId, chunks] of keys) {
          const keptChunks = kept.get(keyId) ?? new Map<number, Uint8Array>();
          kept.set(keyId, keptChunks);
          for (const [chunk, bits] of chunks) {
            const into = keptChunks.get(chunk);
            if (into === undefined) keptChunks.set(chunk, bits);
            else for (let index = 0; index < bits.length; index++) into[index]! |= bits[index]!;
          }
        }
      }
      this.onError(error);
    }
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
    await this.writeSightings();
    await this.writeCoverage();
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
