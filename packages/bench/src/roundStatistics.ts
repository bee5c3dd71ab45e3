/**
 * How rounds of load are ordered and summed up: the floor and the measured targets alternate, and
 * each target's round is read against the floor interpolated between the floor runs around it, so
 * a machine that speeds up or slows down during a scenario moves both sides of a ratio alike.
 */

/** The middle value of `values` (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('the median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** A summary of per-round values: their median (a duet's share: its seconds' summed ratio, roundSummary.ts) and the lowest and highest of them. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  /** How many values it sums up. */
  count: number;
}

/** The median, lowest and highest of `values`; null when there are none. */
export function spread(values: readonly number[]): Spread | null {
  if (values.length === 0) return null;
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), count: values.length };
}

/** One run of a schedule: a run of the floor, or of one target in one round. */
export type ScheduledRun =
  | { kind: 'floor'; run: number }
  | {
      kind: 'target';
      /** Index into the targets. */
      target: number;
      round: number;
      /** Where in its round the target runs: 0 right after the round's floor run. */
      position: number;
    };

/**
 * The order of a scenario's runs: the floor, then every target once (in an order rotated by one
 * each round, so no target always follows the floor), then the floor again, and so on, ending on
 * the floor: F T F T F T F for one target and three rounds. Every round lies between two floor
 * runs, `rounds + 1` of them in all.
 */
export function interleavedSchedule(targets: number, rounds: number): ScheduledRun[] {
  if (!Number.isInteger(targets) || targets < 1)
    throw new Error(`a schedule needs at least one target, got ${targets}`);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`a schedule needs at least one round, got ${rounds}`);
  const schedule: ScheduledRun[] = [];
  for (let round = 0; round < rounds; round++) {
    schedule.push({ kind: 'floor', run: round });
    for (let position = 0; position < targets; position++)
      schedule.push({ kind: 'target', target: (round + position) % targets, round, position });
  }
  schedule.push({ kind: 'floor', run: rounds });
  return schedule;
}

/**
 * The floor's calls/s at a target's run: linear between the floor runs before and after its
 * round, by its place between them (halfway for a round of one target). A drift that is linear
 * over the round cancels out of the ratio.
 */
export function floorBeside(
  floorRuns: readonly number[],
  round: number,
  position: number,
  targetsPerRound: number,
): number {
  const before = floorRuns[round];
  const after = floorRuns[round + 1];
  if (before === undefined || after === undefined)
    throw new Error(`round ${round} needs floor runs ${round} and ${round + 1}, there are ${floorRuns.length}`);
  return before + ((after - before) * (position + 1)) / (targetsPerRound + 1);
}
