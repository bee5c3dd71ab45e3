import type { CostMeter } from './callCosts.js';
import { runDuet } from './duetRun.js';
import { type LoadOptions, type MeasuredWindow, runLoad } from './loadRun.js';
import type { ScenarioMeasurement } from './report.js';
import { runInterleaved } from './roundRun.js';
import type { Scenario } from './scenarios.js';

export interface ScenarioRunOptions {
  corpusSize: number;
  scenario: Scenario;
  /** Sent in order, round and round: one path, or the mixed scenario's list. */
  paths: string[];
  server: { base: string; pid: number };
  floor: { base: string; pid: number };
  /** The Prism mock, measured once after the rounds (its figure is a reference, not a target). */
  mock?: { base: string; headers: Record<string, string> };
  /** The traffic keys, sent in turn to the server and to the floor alike. */
  keys: string[];
  rounds: number;
  meter: Pick<CostMeter, 'window'>;
  load: Pick<LoadOptions, 'connections' | 'durationSeconds' | 'warmupSeconds'>;
  log: (line: string) => void;
  /**
   * Measured as a duet on these two cores (duetRun.ts), PostgreSQL's processes on the server's
   * side; absent: the floor and the server alternate (roundRun.ts).
   */
  duet?: { cores: readonly [number, number]; postgres: () => Promise<number[]>; coldFirst?: boolean };
}

/**
 * One scenario against the same-bytes floor, in rounds (floor, server, floor, ..., floor): both
 * sent the same requests (paths and keys, so the load generator writes the same bytes to each)
 * from the same load generator at the same connections, each run after its own warm-up on the
 * same traffic.
 */
export async function measureScenario(options: ScenarioRunOptions): Promise<ScenarioMeasurement> {
  const { scenario } = options;
  const run = (origin: string) => (window: MeasuredWindow) =>
    runLoad(
      {
        origin,
        paths: options.paths,
        keys: options.keys,
        ...options.load,
        notFoundExpected: scenario.id === 'mixed',
      },
      window,
    );
  if (options.duet) {
    const load = (origin: string) => ({
      origin,
      paths: options.paths,
      keys: options.keys,
      ...options.load,
      notFoundExpected: scenario.id === 'mixed',
    });
    const measured = await runDuet({
      server: {
        name: 'server',
        pids: { servers: [options.server.pid] },
        load: load(options.server.base),
        companions: options.duet.postgres,
      },
      floor: { name: 'floor', pids: { servers: [options.floor.pid] }, load: load(options.floor.base) },
      rounds: options.rounds,
      cores: options.duet.cores,
      coldFirst: options.duet.coldFirst,
      meter: options.meter,
      label: scenario.id,
      log: options.log,
    });
    const mock = options.mock ? await mockRun(options) : undefined;
    return { corpusSize: options.corpusSize, keyPlan: 'platform', scenario, ...measured, ...(mock ? { mock } : {}) };
  }
  const [measured] = await runInterleaved({
    floor: { name: 'floor', pids: { servers: [options.floor.pid] }, run: run(options.floor.base) },
    targets: [{ name: 'server', pids: { servers: [options.server.pid] }, run: run(options.server.base) }],
    rounds: options.rounds,
    meter: options.meter,
    label: scenario.id,
    log: options.log,
  });
  if (!measured) throw new Error(`${scenario.id}: the server was not measured`);
  const mock = options.mock ? await mockRun(options) : undefined;
  return { corpusSize: options.corpusSize, keyPlan: 'platform', scenario, ...measured, ...(mock ? { mock } : {}) };
}

/** The Prism mock, once after the rounds: a reference, not a target. */
async function mockRun(options: ScenarioRunOptions) {
  if (!options.mock) return undefined;
  const mock = await runLoad({
    origin: options.mock.base,
    paths: options.paths,
    headers: options.mock.headers,
    ...options.load,
  });
  options.log(`  ${options.scenario.id.padEnd(16)} mock: ${Math.round(mock.requestsPerSecond)} req/s`);
  return mock;
}
