import type { CostMeter, MeteredPids } from './callCosts.js';
import type { LoadResult, MeasuredWindow } from './loadRun.js';
import { floorBeside, interleavedSchedule } from './roundStatistics.js';
import { type MeasuredRound, type MeteredRun, medianLoad, type RoundedMeasurement } from './roundSummary.js';

/** Something measured in rounds: how to run its load (warm-up included) and whose CPU it costs. */
export interface RoundTarget {
  name: string;
  pids: MeteredPids;
  /** One run, its warm-up first; `window` is opened between them (runLoad's second argument). */
  run: (window: MeasuredWindow) => Promise<LoadResult>;
}

export interface InterleavedOptions {
  floor: RoundTarget;
  targets: readonly RoundTarget[];
  rounds: number;
  /** Opens a window over each run (a CostMeter). */
  meter: Pick<CostMeter, 'window'>;
  /** Names the scenario in the log lines. */
  label: string;
  log: (line: string) => void;
}

/**
 * Runs the floor and the targets in the order of interleavedSchedule (floor, targets, floor, ...,
 * floor), every run with its own warm-up and its CPU read over the measured part, and returns
 * each target's measurement: the median of its rounds, each round beside the floor interpolated
 * between the floor runs around it.
 */
export async function runInterleaved(options: InterleavedOptions): Promise<RoundedMeasurement[]> {
  const { floor, targets, meter, log } = options;
  const floorRuns: MeteredRun[] = [];
  const runs: Array<Array<{ run: MeteredRun; round: number; position: number }>> = targets.map(() => []);
  const metered = async (target: RoundTarget): Promise<MeteredRun> => {
    const window = meter.window(target.pids);
    const result = await target.run(window);
    return { ...result, costs: await window.costs(result.requests) };
  };
  for (const step of interleavedSchedule(targets.length, options.rounds)) {
    if (step.kind === 'floor') {
      const run = await metered(floor);
      floorRuns.push(run);
      log(
        `  ${options.label.padEnd(16)} ${floor.name}: ${Math.round(run.requestsPerSecond)} req/s, ${run.costs?.serverMicros ?? '-'} µs/call, errors ${run.errors}`,
      );
      continue;
    }
    const target = targets[step.target] as RoundTarget;
    const run = await metered(target);
    runs[step.target]?.push({ run, round: step.round, position: step.position });
    log(
      `  ${options.label.padEnd(16)} ${target.name}, round ${step.round + 1}: ${Math.round(run.requestsPerSecond)} req/s, p99 ${run.latencyP99Ms} ms, server ${run.costs?.serverMicros ?? '-'} µs/call, PostgreSQL ${run.costs?.databaseMicros ?? '-'} µs/call, errors ${run.errors}`,
    );
  }
  const floorRates = floorRuns.map((run) => run.requestsPerSecond);
  return runs.map((list) => {
    const rounds: MeasuredRound[] = list
      .sort((a, b) => a.round - b.round)
      .map(({ run, round, position }) => ({
        server: run,
        floorRequestsPerSecond: floorBeside(floorRates, round, position, targets.length),
      }));
    return {
      server: medianLoad(rounds.map((round) => round.server)),
      floor: medianLoad(floorRuns),
      rounds,
      floorRuns,
    };
  });
}
