import type pg from 'pg';
import { calendarMonthOf } from '@quotes/accounts/rules';
import {
  addCalls,
  type DaySightings,
  defaultHistoryBytes,
  entryBytes,
  type HistoryDrops,
  type HourCounts,
  listedPositions,
  maxSightingsPerFlush,
  type MonthCoverage,
  positionsIn,
  type SightingKind,
  chunkShift,
  coverageChunkBits,
} from './historyHoldings.js';
import { coverageStatement, flushStatement, sentPositions, sightingsStatement } from './historyStatements.js';

export {
  coverageChunkBits,
  defaultHistoryBytes,
  entryBytes,
  type HistoryDrops,
  type SightingKind,
} from './historyHoldings.js';

/** The outcome of a call the monthly counter keeps; every other outcome is a problem type. */
export const servedOutcome = 'served';
const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

export interface UsageHistoryOptions {
  /** Told of a flush that failed (its counts are kept for the next one). */
  onError?: (error: unknown) => void;
  /** The bytes the recorder holds between flushes at most (estimated per entry); default 16 MB. */
  maxBytes?: number;
  /** How often the coverage is written, at least `flushMs` (default: with every flush). */
  coverageFlushMs?: number;
}

/** What one flush writes: everything held when it began. */
interface Taken {
  hours: Map<number, HourCounts>;
  sightings: Map<number, DaySightings>;
  coverage: Map<string, MonthCoverage>;
}

/**
 * Each key's calls per hour and outcome, the distinct networks, origins and filter pages its
 * served calls were seen with per day, and the corpus positions they served per month, kept in
 * memory and added to `usage_history`, `usage_sightings` and `usage_coverage` by one statement
 * each per flush (every `flushMs`, and at close): a call costs Map look-ups and an increment,
 * never a database write. The coverage is written every `coverageFlushMs` only: between two of
 * its writes a key's picks land in the same chunks many times, so each chunk is written once for
 * all of them. A flush that fails keeps its counts for the next one, so only a killed process
 * loses history: what it counted since its last flush (the coverage: since its last write).
 *
 * Memory is kept under `maxBytes` (estimated per entry, `entryBytes`) plus one flush in flight:
 * reaching it starts a flush at once, which takes everything held; while that flush is writing,
 * calls are still counted but new sightings and coverage past the budget are dropped, and counted
 * in `drops`.
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
  private readonly onError: (error: unknown) => void;
  private readonly maxBytes: number;
  /** Estimated bytes of what is held and not yet taken by a flush. */
  private held = 0;
  /** Of those, the coverage's (kept by a flush that does not write it). */
  private coverageHeld = 0;
  private readonly coverageFlushMs: number;
  private coverageTakenAt = performance.now();
  /** Flushes started because the budget was reached. */
  earlyFlushes = 0;
  readonly drops: HistoryDrops = { coverage: 0, sightings: 0 };

  constructor(
    private readonly pool: pg.Pool,
    flushMs: number,
    options: UsageHistoryOptions = {},
  ) {
    this.onError = options.onError ?? (() => undefined);
    this.maxBytes = options.maxBytes ?? defaultHistoryBytes;
    this.coverageFlushMs = options.coverageFlushMs ?? flushMs;
    // A slow database makes flushes wait for each other, never pile up.
    this.timer = setInterval(() => {
      if (this.flushing !== undefined) return;
      // Within half an interval of its due time, the coverage goes with this flush rather than the next.
      const coverageDue = performance.now() - this.coverageTakenAt >= this.coverageFlushMs - flushMs / 2;
      void this.flush(coverageDue);
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
    // Counts are always kept (they are what the history is); a new entry may start a flush.
    const added = addCalls(this.current, keyId, outcome, 1);
    if (added !== 0) {
      this.held += added;
      if (this.held >= this.maxBytes) this.flushEarly();
    }
  }

  /** A served call of `keyId` was seen with this network, origin or page (each distinct value is written once a day). */
  sight(keyId: string, kind: SightingKind, value: string, nowMs: number): void {
    const dayStart = nowMs - (nowMs % dayMs);
    const seen = this.sightings.get(dayStart)?.get(keyId)?.get(kind);
    if (seen !== undefined && (seen.has(value) || seen.size >= maxSightingsPerFlush)) return;
    if (!this.roomFor(entryBytes.sightingKey + entryBytes.sightingValue + value.length)) {
      this.drops.sightings += 1;
      return;
    }
    // Looked up again: a flush that roomFor started took the collections.
    let bytes = entryBytes.sightingValue + value.length;
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
      bytes += entryBytes.sightingKey;
    }
    values.add(value);
    this.held += bytes;
  }

  /**
   * A served call of `keyId` answered with the quotes at these corpus positions (ranks): listed
   * while the key's month has few, then each sets its bit in the key's bitset of the month, the
   * chunk of 8,192 positions allocated when first hit.
   */
  cover(keyId: string, ranks: readonly number[], nowMs: number): void {
    if (ranks.length === 0) return;
    let month = this.coverageMonth;
    if (nowMs < month.from || nowMs >= month.until) {
      const found = calendarMonthOf(new Date(nowMs));
      month = { key: found.key, from: found.start.getTime(), until: found.next.getTime() };
      this.coverageMonth = month;
    }
    this.coverIn(month.key, keyId, ranks);
  }

  /** Estimated bytes held and not yet taken by a flush (at most the budget, plus counts and one entry). */
  heldBytes(): number {
    return this.held;
  }

  /** Bytes the bitsets not yet written hold: at most a chunk per 8,192 positions per key served since the last flush. */
  coverageBytes(): number {
    let bytes = 0;
    for (const keys of this.coverage.values())
      for (const held of keys.values()) if (!Array.isArray(held)) bytes += (held.size * coverageChunkBits) / 8;
    return bytes;
  }

  /** Calls counted and not yet written (what a kill now would lose). */
  pendingCalls(): number {
    let total = 0;
    for (const hour of this.hours.values())
      for (const outcomes of hour.values()) for (const calls of outcomes.values()) total += calls;
    return total;
  }

  /**
   * Adds what was counted so far to the tables, the coverage too unless `withCoverage` is false; a
   * flush asked for during another runs after it.
   */
  flush(withCoverage = true): Promise<void> {
    const next =
      this.flushing === undefined
        ? this.write(this.take(withCoverage))
        : this.flushing.then(() => this.write(this.take(withCoverage)));
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

  /** Whether `bytes` more fit: at the budget a flush starts, taking what is held, unless one is writing. */
  private roomFor(bytes: number): boolean {
    if (this.held + bytes <= this.maxBytes) return true;
    if (this.flushing !== undefined) return false;
    this.flushEarly();
    return true;
  }

  private flushEarly(): void {
    if (this.flushing !== undefined) return;
    this.earlyFlushes += 1;
    void this.flush();
  }

  private coverIn(monthKey: string, keyId: string, ranks: readonly number[]): void {
    let held = this.coverage.get(monthKey)?.get(keyId);
    if (held === undefined) {
      if (!this.roomFor(entryBytes.coverageKey)) {
        this.drops.coverage += ranks.length;
        return;
      }
      // Looked up after roomFor: a flush it started took the collections.
      let keys = this.coverage.get(monthKey);
      if (keys === undefined) {
        keys = new Map();
        this.coverage.set(monthKey, keys);
      }
      held = [];
      keys.set(keyId, held);
      this.addCoverageBytes(entryBytes.coverageKey);
    }
    if (Array.isArray(held)) {
      if (held.length + ranks.length <= listedPositions) {
        const bytes = ranks.length * entryBytes.listedPosition;
        if (!this.roomFor(bytes)) {
          this.drops.coverage += ranks.length;
          return;
        }
        // Into a list a flush just took, if roomFor started one: it is read after this call returns.
        for (const rank of ranks) held.push(rank);
        if (this.coverage.get(monthKey)?.get(keyId) === held) this.addCoverageBytes(bytes);
        return;
      }
      // Past a chunk's worth of positions: the list becomes chunks.
      const listed = held;
      held = new Map<number, Uint8Array>();
      this.coverage.get(monthKey)!.set(keyId, held);
      this.addCoverageBytes(-listed.length * entryBytes.listedPosition);
      this.setBits(monthKey, keyId, held, listed);
    }
    this.setBits(monthKey, keyId, held, ranks);
  }

  private setBits(monthKey: string, keyId: string, chunks: Map<number, Uint8Array>, ranks: readonly number[]): void {
    for (const rank of ranks) {
      const chunk = rank >>> chunkShift;
      let bits = chunks.get(chunk);
      if (bits === undefined) {
        if (!this.roomFor(entryBytes.coverageChunk)) {
          this.drops.coverage += 1;
          continue;
        }
        // A flush roomFor started took `chunks`; it reads them after this call, so the bits still go with it.
        bits = new Uint8Array(coverageChunkBits / 8);
        chunks.set(chunk, bits);
        if (this.coverage.get(monthKey)?.get(keyId) === chunks) this.addCoverageBytes(entryBytes.coverageChunk);
      }
      const offset = rank & (coverageChunkBits - 1);
      bits[offset >>> 3]! |= 0x80 >>> (offset & 7);
    }
  }

  private addCoverageBytes(bytes: number): void {
    this.held += bytes;
    this.coverageHeld += bytes;
  }

  /**
   * Everything held (the coverage only `withCoverage`), for one flush; new calls start new
   * collections (the request path's rule for long-lived Maps: server README).
   */
  private take(withCoverage: boolean): Taken {
    const taken = { hours: this.hours, sightings: this.sightings, coverage: new Map<string, MonthCoverage>() };
    this.hours = new Map();
    this.currentHourStart = Number.NaN;
    this.sightings = new Map();
    if (withCoverage) {
      taken.coverage = this.coverage;
      this.coverage = new Map();
      this.coverageHeld = 0;
      this.coverageTakenAt = performance.now();
    }
    this.held = this.coverageHeld;
    return taken;
  }

  private async writeSightings(taken: Map<number, DaySightings>): Promise<void> {
    if (taken.size === 0) return;
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
      // Kept for the next flush, as the counts are (within the budget).
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

  private async writeCoverage(taken: Map<string, MonthCoverage>): Promise<void> {
    if (taken.size === 0) return;
    const chunkColumns: [string[], string[], number[], Buffer[]] = [[], [], [], []];
    const listColumns: [string[], string[], string[]] = [[], [], []];
    const sendPositions = (keyId: string, month: string, positions: readonly number[]) => {
      listColumns[0].push(keyId);
      listColumns[1].push(month);
      listColumns[2].push(positions.join(','));
    };
    for (const [month, keys] of taken)
      for (const [keyId, held] of keys)
        if (Array.isArray(held)) sendPositions(keyId, month, held);
        else
          for (const [chunk, bits] of held) {
            const positions = positionsIn(chunk, bits, sentPositions);
            if (positions !== undefined) sendPositions(keyId, month, positions);
            else {
              chunkColumns[0].push(keyId);
              chunkColumns[1].push(month);
              chunkColumns[2].push(chunk);
              chunkColumns[3].push(Buffer.from(bits.buffer, bits.byteOffset, bits.byteLength));
            }
          }
    try {
      await this.pool.query(coverageStatement, [...chunkColumns, ...listColumns]);
    } catch (error) {
      // Kept for the next flush (within the budget): OR-ed into whatever was covered since.
      for (const [month, keys] of taken)
        for (const [keyId, held] of keys)
          if (Array.isArray(held)) this.coverIn(month, keyId, held);
          else
            for (const [chunk, bits] of held) this.coverIn(month, keyId, positionsIn(chunk, bits, coverageChunkBits)!);
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

  private async write(taken: Taken): Promise<void> {
    await this.writeSightings(taken.sightings);
    await this.writeCoverage(taken.coverage);
    if (taken.hours.size === 0) return;
    const keyIds: string[] = [];
    const periods: string[] = [];
    const outcomes: string[] = [];
    const calls: number[] = [];
    for (const [hourStart, byKey] of taken.hours)
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
      // Kept for the next flush, whatever the budget: the statement is one transaction, so nothing of it was added.
      for (let index = 0; index < keyIds.length; index += 1)
        this.held += addCalls(
          this.hourCounts(Date.parse(periods[index]!)),
          keyIds[index]!,
          outcomes[index]!,
          calls[index]!,
        );
      this.onError(error);
    }
  }
}
