import type { CostMeter, MeteredPids } from './callCosts.js';
import { closeSideGroup, everyCore, joinGroup, openSideGroup, pinToCore } from './corePinning.js';
import { type LoadOptions, runLoads } from './loadRun.js';
import type { MeteredRun, RoundedMeasurement, SlicePair } from './roundSummary.js';
import { medianLoad } from './roundSummary.js';

/**
 * Duet measurement (Bulej et al., "Duet Benchmarking", 2020): the server and the floor measured
 * at the same moment on the same machine, each half on a core of its own, so whatever else the
 * machine does lands on both halves alike and the ratio is taken from paired, simultaneous
 * slices instead of from runs seconds apart.
 */
export interface DuetSide {
  name: string;
  /** The processes whose CPU is metered and which run on this side's core. */
  pids: MeteredPids;
  /** This side's load; its load generator runs on the side's core too. */
  load: Omit<LoadOptions, 'core'>;
  /** More processes on this side's core, read at each round (the server's PostgreSQL). */
  companions?: () => Promise<number[]>;
}

export interface DuetOptions {
  /** The measured side and its reference (the same-bytes floor, or another server). */
  server: DuetSide;
  floor: DuetSide;
  /** Rounds; the sides swap cores every round, so neither core's own load favours one side. */
  rounds: number;
  cores: readonly [number, number];
  /**
   * The first round meets the server as it is: no warm-up of the server (its load generator
   * warms its JIT on the floor instead); it is kept apart from the rounds, as `coldRound`.
   */
  coldFirst?: boolean;
  /** Which round of a longer series the first one is, so the cores keep swapping across calls (default 0). */
  firstRound?: number;
  meter: Pick<CostMeter, 'window'>;
  label: string;
  log: (line: string) => void;
}

/** One duet round: both sides' runs, measured at the same moment, and their paired seconds. */
export interface DuetRound {
  server: MeteredRun;
  floor: MeteredRun;
  slices: SlicePair[];
}

export interface DuetMeasurement extends RoundedMeasurement {
  slices: SlicePair[];
  coldRound?: DuetRound;
}

/** Each second's answers of both sides, paired; a second in which either answered nothing has no ratio and is left out. */
export function pairSlices(server: readonly number[] = [], floor: readonly number[] = []): SlicePair[] {
  const pairs: SlicePair[] = [];
  for (let index = 0; index < Math.min(server.length, floor.length); index++) {
    const pair = { server: server[index] ?? 0, floor: floor[index] ?? 0 };
    if (pair.server > 0 && pair.floor > 0) pairs.push(pair);
  }
  return pairs;
}

/** The side on `core` in round `round`: the server starts on the first core, and the sides swap each round. */
export function duetCores(cores: readonly [number, number], round: number): { server: number; floor: number } {
  const [first, second] = cores;
  return round % 2 === 0 ? { server: first, floor: second } : { server: second, floor: first };
}

export async function runDuet(options: DuetOptions): Promise<DuetMeasurement> {
  const { server, floor, meter, log } = options;
  const rounds: DuetRound[] = [];
  let coldRound: DuetRound | undefined;
  const total = options.rounds + (options.coldFirst ? 1 : 0);
  const pinned = new Set<number>();
  const groups = { server: await openSideGroup('server'), floor: await openSideGroup('floor') };
  try {
    await duetRounds();
  } finally {
    for (const group of Object.values(groups)) if (group !== null) await closeSideGroup(group);
    // Given back every core: what runs next (cold figures, the bystander) is not a duet.
    // PostgreSQL's connections opened meanwhile inherited its postmaster's core: they go back too.
    const companions = [...((await server.companions?.()) ?? []), ...((await floor.companions?.()) ?? [])];
    await pinToCore([...pinned, ...companions], everyCore);
  }
  async function duetRounds() {
    for (let index = 0; index < total; index++) {
      const cold = options.coldFirst === true && index === 0;
      const core = duetCores(options.cores, index + (options.firstRound ?? 0));
      const sidePids = (side: DuetSide) => [
        ...side.pids.servers,
        ...(side.pids.balancer === undefined ? [] : [side.pids.balancer]),
      ];
      const serverSide = [...sidePids(server), ...((await server.companions?.()) ?? [])];
      const floorSide = [...sidePids(floor), ...((await floor.companions?.()) ?? [])];
      for (const pid of [...serverSide, ...floorSide]) pinned.add(pid);
      await pinToCore(serverSide, core.server);
      await pinToCore(floorSide, core.floor);
      if (groups.server !== null) await joinGroup(groups.server, serverSide);
      if (groups.floor !== null) await joinGroup(groups.floor, floorSide);
      const windows = [meter.window(server.pids), meter.window(floor.pids)];
      const [serverRun, floorRun] = await runLoads(
        [
          {
            ...server.load,
            core: core.server,
            group: groups.server ?? undefined,
            ...(cold ? { warmupOrigin: floor.load.origin } : {}),
          },
          { ...floor.load, core: core.floor, group: groups.floor ?? undefined },
        ],
        windows,
      );
      if (!serverRun || !floorRun) throw new Error(`${options.label}: a duet side returned nothing`);
      const round: DuetRound = {
        server: { ...serverRun, costs: (await windows[0]?.costs(serverRun.requests)) ?? null },
        floor: { ...floorRun, costs: (await windows[1]?.costs(floorRun.requests)) ?? null },
        slices: pairSlices(serverRun.slices, floorRun.slices),
      };
      const ratios = round.slices.map((pair) => pair.server / pair.floor);
      log(
        `  ${options.label.padEnd(16)} ${cold ? 'cold round' : `round ${index + 1 + (options.firstRound ?? 0) - (options.coldFirst ? 1 : 0)}`} (${server.name} on core ${core.server}): ${server.name} ${Math.round(serverRun.requestsPerSecond)} req/s p99 ${serverRun.latencyP99Ms} ms, ${floor.name} ${Math.round(floorRun.requestsPerSecond)} req/s; per second ${ratios.map((ratio) => ratio.toFixed(2)).join(' ')}; errors ${serverRun.errors}/${floorRun.errors}`,
      );
      if (cold) coldRound = round;
      else rounds.push(round);
    }
  }
  return { ...summed(rounds), ...(coldRound ? { coldRound } : {}) };
}

function summed(rounds: readonly DuetRound[]): DuetMeasurement {
  return {
    server: medianLoad(rounds.map((round) => round.server)),
    floor: medianLoad(rounds.map((round) => round.floor)),
    rounds: rounds.map((round) => ({ server: round.server, floorRequestsPerSecond: round.floor.requestsPerSecond })),
    floorRuns: rounds.map((round) => round.floor),
    slices: rounds.flatMap((round) => round.slices),
  };
}

/**
 * Duets of one round each, on a fresh pair of processes each (`pair()` starts them, `stop`
 * ends them), as one measurement: a ratio of two servers moves with the processes as much as
 * with the rounds, so each round samples a new pair (Kalibera and Jones, "Rigorous Benchmarking
 * in Reasonable Time", 2013); the cores swap from one pair to the next.
 */
export async function runDuetOnFreshPairs(
  options: Omit<DuetOptions, 'server' | 'floor' | 'coldFirst' | 'firstRound'>,
  pair: () => Promise<{ server: DuetSide; floor: DuetSide; stop: () => Promise<unknown> }>,
): Promise<DuetMeasurement> {
  const rounds: DuetRound[] = [];
  for (let index = 0; index < options.rounds; index++) {
    const { server, floor, stop } = await pair();
    try {
      const one = await runDuet({ ...options, server, floor, rounds: 1, firstRound: index });
      const [run] = one.floorRuns ?? [];
      const [measured] = one.rounds ?? [];
      if (!run || !measured) throw new Error(`${options.label}: a duet round returned nothing`);
      rounds.push({ server: measured.server, floor: run, slices: one.slices });
    } finally {
      await stop();
    }
  }
  return summed(rounds);
}
