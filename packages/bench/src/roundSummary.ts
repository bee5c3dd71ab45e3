import type { CallCosts } from './callCosts.js';
import { quotient } from './figureText.js';
import type { LoadResult } from './loadRun.js';
import { median, type Spread, spread } from './roundStatistics.js';

/** One measured run with what it cost (null: no cost window, or nothing answered). */
export interface MeteredRun extends LoadResult {
  costs: CallCosts | null;
}

/** One round of one target: its run, and the floor's calls/s beside it (see floorBeside). */
export interface MeasuredRound {
  server: MeteredRun;
  floorRequestsPerSecond: number;
}

/** One second of a duet: what each side answered in it, measured at the same moment. */
export interface SlicePair {
  server: number;
  floor: number;
}

/** What a scenario or route measurement holds: medians, and (from runs in rounds on) the rounds themselves. */
export interface RoundedMeasurement {
  /** The median of its rounds' figures. */
  server: LoadResult;
  /** The median of the floor runs' figures. */
  floor: LoadResult;
  rounds?: MeasuredRound[];
  floorRuns?: MeteredRun[];
  /** A duet's paired seconds over its rounds (duetRun.ts); absent from alternating runs. */
  slices?: SlicePair[];
}

/** Each figure's median over `runs`; requests and errors are summed (an error in any round counts). */
export function medianLoad(runs: readonly LoadResult[]): LoadResult {
  if (runs.length === 0) throw new Error('no runs to sum up');
  const of = (pick: (run: LoadResult) => number | null | undefined) => {
    const values = runs.flatMap((run) => pick(run) ?? []);
    return values.length === 0 ? null : median(values);
  };
  const sum = (pick: (run: LoadResult) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const result: LoadResult = {
    requestsPerSecond: of((run) => run.requestsPerSecond) ?? 0,
    latencyP50Ms: of((run) => run.latencyP50Ms),
    latencyP99Ms: of((run) => run.latencyP99Ms),
    requests: sum((run) => run.requests),
    errors: sum((run) => run.errors),
  };
  const cpu = of((run) => run.loadGeneratorCpuMicros);
  const seconds = of((run) => run.seconds);
  return cpu === null || seconds === null ? result : { ...result, loadGeneratorCpuMicros: cpu, seconds };
}

/** Each cost's median over the runs that have costs; null when none has. */
export function medianCosts(list: readonly (CallCosts | null)[]): CallCosts | null {
  const present = list.filter((costs): costs is CallCosts => costs !== null);
  if (present.length === 0) return null;
  const of = (pick: (costs: CallCosts) => number) => median(present.map(pick));
  const databases = present.flatMap((costs) => costs.databaseMicros ?? []);
  const balancers = present.flatMap((costs) => costs.balancerMicros ?? []);
  return {
    serverMicros: of((costs) => costs.serverMicros),
    databaseMicros: databases.length === 0 ? null : median(databases),
    balancerMicros: balancers.length === 0 ? null : median(balancers),
    transactionsPerCall: of((costs) => costs.transactionsPerCall),
    transactionsPerSecond: of((costs) => costs.transactionsPerSecond),
    rowsWrittenPerCall: of((costs) => costs.rowsWrittenPerCall),
    walBytesPerCall: of((costs) => costs.walBytesPerCall),
    connections: of((costs) => costs.connections),
  };
}

/**
 * The server's calls/s as a share of the floor's: a duet's, its answers over the floor's in the
 * same seconds, with the lowest and highest second's ratio; else the median of its rounds'
 * ratios, with their lowest and highest. A measurement from before rounds has one ratio, of its
 * two runs. Rounds whose floor answered nothing have no ratio and are left out; null when none has
 * one.
 */
export function floorShare(measurement: RoundedMeasurement): Spread | null {
  const { slices } = measurement;
  if (slices && slices.length > 0) {
    const seconds = spread(slices.flatMap((pair) => quotient(pair.server, pair.floor) ?? []));
    const sum = (pick: (pair: SlicePair) => number) => slices.reduce((total, pair) => total + pick(pair), 0);
    const share = quotient(
      sum((pair) => pair.server),
      sum((pair) => pair.floor),
    );
    return seconds && share !== null ? { ...seconds, median: share } : null;
  }
  const ratios = measurement.rounds
    ? measurement.rounds.flatMap(
        (round) => quotient(round.server.requestsPerSecond, round.floorRequestsPerSecond) ?? [],
      )
    : [quotient(measurement.server.requestsPerSecond, measurement.floor.requestsPerSecond) ?? []].flat();
  return spread(ratios);
}

/** Cores the load generator kept busy over its runs (the median); null without the figure. */
export function loadGeneratorCores(runs: readonly LoadResult[]): number | null {
  const values = runs.flatMap((run) =>
    run.loadGeneratorCpuMicros !== undefined && run.seconds !== undefined && run.seconds > 0
      ? [run.loadGeneratorCpuMicros / 1e6 / run.seconds]
      : [],
  );
  return values.length === 0 ? null : median(values);
}

/** The server's and the floor's costs per call, each the median over its runs. */
export function roundCosts(measurement: RoundedMeasurement): { server: CallCosts | null; floor: CallCosts | null } {
  return {
    server: medianCosts(measurement.rounds?.map((round) => round.server.costs) ?? []),
    floor: medianCosts(measurement.floorRuns?.map((run) => run.costs) ?? []),
  };
}
