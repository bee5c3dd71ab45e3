/** What the usage history holds in memory between flushes, and what each entry costs. */

/** Distinct values kept per key, kind and day between two flushes: a flood of new values cannot grow memory past it. */
export const maxSightingsPerFlush = 1000;

/** Calls by key, then by outcome, in one hour. */
export type HourCounts = Map<string, Map<string, number>>;

/** What a served call was seen with: its client network, browser origin, or filter page. */
export type SightingKind = 'network' | 'origin' | 'page';

/** Distinct values by key, then by kind, in one UTC day. */
export type DaySightings = Map<string, Map<SightingKind, Set<string>>>;

/** Corpus positions per bitset chunk: 1 KB, the width of usage_coverage.bits. */
export const coverageChunkBits = 8192;
export const chunkShift = 13;
/**
 * Positions a key's month keeps as a list before its bitset chunks: at 8 bytes a position, a list
 * never holds more than one chunk, and a key drawing a few random quotes needs no chunk at all.
 */
export const listedPositions = 128;
/** A key's positions served in one month: a short list, or its bitset chunks (one bit a position). */
export type KeyCoverage = number[] | Map<number, Uint8Array>;
/** Coverage by key, in one month. */
export type MonthCoverage = Map<string, KeyCoverage>;

/**
 * What each new entry holds, in bytes (heap and ArrayBuffers, measured with 10,000 keys in
 * `test/data/usageHistoryMemory.test.ts`, rounded up): the budget is kept on these estimates, since
 * asking the heap on every call would cost more than the call.
 */
export const entryBytes = {
  /** A key's first outcome in an hour (its Map and entry). */
  countKey: 200,
  /** Each further outcome of that key and hour. */
  countOutcome: 50,
  /** A key's first value of a kind in a day (its Maps and Set). */
  sightingKey: 350,
  /** Each distinct value, besides its characters. */
  sightingValue: 60,
  /** A key's coverage in a month (its entry and list). */
  coverageKey: 120,
  /** A listed position (array slots grow by half again). */
  listedPosition: 12,
  /** A bitset chunk: 1 KB outside the heap and its typed array. */
  coverageChunk: 1024 + 200,
} as const;

/** What the recorder did not keep because its budget was full while a flush was writing. */
export interface HistoryDrops {
  /** Served corpus positions not set in the coverage (it under-counts distinct quotes). */
  coverage: number;
  /** Networks, origins and pages not noted (the sightings may under-count). */
  sightings: number;
}

/** USAGE_HISTORY_MAX_MB's default. */
export const defaultHistoryBytes = 16 * 1024 * 1024;

/** Adds calls to a key's outcome; returns the estimated bytes a new entry took (0 when it was there). */
export function addCalls(counts: HourCounts, keyId: string, outcome: string, calls: number): number {
  let byOutcome = counts.get(keyId);
  if (byOutcome === undefined) {
    byOutcome = new Map([[outcome, calls]]);
    counts.set(keyId, byOutcome);
    return entryBytes.countKey;
  }
  const before = byOutcome.get(outcome);
  byOutcome.set(outcome, (before ?? 0) + calls);
  return before === undefined ? entryBytes.countOutcome : 0;
}

/** The positions whose bits a chunk sets, or undefined when there are more than `most`. */
export function positionsIn(chunk: number, bits: Uint8Array, most: number): number[] | undefined {
  const positions: number[] = [];
  const first = chunk << chunkShift;
  for (let index = 0; index < bits.length; index++) {
    const byte = bits[index]!;
    if (byte === 0) continue;
    for (let bit = 0; bit < 8; bit++) if ((byte & (0x80 >>> bit)) !== 0) positions.push(first + index * 8 + bit);
    if (positions.length > most) return undefined;
  }
  return positions;
}
