import { describe, expect, it } from 'vitest';
import type { CostWindow } from '../src/callCosts.js';
import type { LoadResult } from '../src/loadRun.js';
import { runInterleaved } from '../src/roundRun.js';
import { floorShare, loadGeneratorCores, medianCosts, medianLoad } from '../src/roundSummary.js';

const result = (requestsPerSecond: number, extra: Partial<LoadResult> = {}): LoadResult => ({
  requestsPerSecond,
  latencyP50Ms: 1,
  latencyP99Ms: 4,
  requests: requestsPerSecond * 5,
  errors: 0,
  ...extra,
});

/** A window that records when it opens and closes and has no costs: the order is what is tested. */
function recordingMeter(events: string[]) {
  return {
    window: (pids: { servers: readonly number[] }): CostWindow => ({
      open: async () => {
        events.push(`open ${pids.servers.join(',')}`);
      },
      close: async () => {
        events.push(`close ${pids.servers.join(',')}`);
      },
      costs: async () => null,
    }),
  };
}

describe('runInterleaved', () => {
  it('runs floor, server, floor, ... floor, each inside its own window, and reads each round beside the floor around it', async () => {
    const events: string[] = [];
    const floorRates = [50_000, 60_000, 40_000, 50_000];
    const serverRates = [33_000, 30_000, 27_000];
    let floorRun = 0;
    let serverRun = 0;
    const [measured] = await runInterleaved({
      floor: {
        name: 'floor',
        pids: { servers: [1] },
        run: async (window) => {
          await window.open();
          events.push('floor');
          await window.close();
          return result(floorRates[floorRun++] as number);
        },
      },
      targets: [
        {
          name: 'server',
          pids: { servers: [2] },
          run: async (window) => {
            await window.open();
            events.push('server');
            await window.close();
            return result(serverRates[serverRun++] as number);
          },
        },
      ],
      rounds: 3,
      meter: recordingMeter(events),
      label: 'random',
      log: () => {},
    });
    expect(events.filter((event) => event === 'floor' || event === 'server')).toEqual([
      'floor',
      'server',
      'floor',
      'server',
      'floor',
      'server',
      'floor',
    ]);
    expect(events.slice(0, 6)).toEqual(['open 1', 'floor', 'close 1', 'open 2', 'server', 'close 2']);
    expect(measured?.rounds?.map((round) => round.floorRequestsPerSecond)).toEqual([55_000, 50_000, 45_000]);
    // Each round 0.6 of the floor around it, though the floor's median (50,000) and the server's
    // (30,000) would say so only by chance.
    expect(floorShare(measured!)).toEqual({ median: 0.6, min: 0.6, max: 0.6, count: 3 });
    expect(measured?.server.requestsPerSecond).toBe(30_000);
    expect(measured?.floor.requestsPerSecond).toBe(50_000);
    expect(measured?.floorRuns).toHaveLength(4);
  });

  it('keeps each target apart over rounds in a rotated order', async () => {
    const order: string[] = [];
    const target = (name: string, rate: number) => ({
      name,
      pids: { servers: [0] },
      run: async () => {
        order.push(name);
        return result(rate);
      },
    });
    const measured = await runInterleaved({
      floor: target('F', 10_000),
      targets: [target('a', 5_000), target('b', 2_000)],
      rounds: 2,
      meter: recordingMeter([]),
      label: 'x',
      log: () => {},
    });
    expect(order.join(' ')).toBe('F a b F b a F');
    expect(measured.map((m) => floorShare(m)?.median)).toEqual([0.5, 0.2]);
  });
});

describe('the medians of rounds', () => {
  it("takes a ratio as the median of the rounds' ratios, not the ratio of the medians", () => {
    const share = floorShare({
      server: result(0),
      floor: result(0),
      rounds: [
        { server: { ...result(30_000), costs: null }, floorRequestsPerSecond: 50_000 },
        { server: { ...result(40_000), costs: null }, floorRequestsPerSecond: 50_000 },
        { server: { ...result(20_000), costs: null }, floorRequestsPerSecond: 25_000 },
      ],
    });
    expect(share).toEqual({ median: 0.8, min: 0.6, max: 0.8, count: 3 });
  });

  it('leaves out a round whose floor answered nothing, and reads a report without rounds as one', () => {
    expect(
      floorShare({
        server: result(0),
        floor: result(0),
        rounds: [
          { server: { ...result(30_000), costs: null }, floorRequestsPerSecond: 0 },
          { server: { ...result(30_000), costs: null }, floorRequestsPerSecond: 60_000 },
        ],
      }),
    ).toEqual({ median: 0.5, min: 0.5, max: 0.5, count: 1 });
    expect(floorShare({ server: result(30_000), floor: result(40_000) })).toEqual({
      median: 0.75,
      min: 0.75,
      max: 0.75,
      count: 1,
    });
    expect(floorShare({ server: result(30_000), floor: result(0) })).toBeNull();
  });

  it('gives each figure its median over the runs, and adds up requests and errors', () => {
    const summed = medianLoad([
      result(10_000, { latencyP99Ms: 9, errors: 1 }),
      result(30_000, { latencyP99Ms: 3 }),
      result(20_000, { latencyP99Ms: null }),
    ]);
    expect(summed).toEqual({
      requestsPerSecond: 20_000,
      latencyP50Ms: 1,
      latencyP99Ms: 6,
      requests: 300_000,
      errors: 1,
    });
  });

  it("gives each cost its median over the runs that have one, and the load generator's cores", () => {
    const costs = (serverMicros: number, databaseMicros: number | null) => ({
      serverMicros,
      databaseMicros,
      balancerMicros: null,
      transactionsPerCall: 0.001,
      transactionsPerSecond: 20,
      rowsWrittenPerCall: 0.002,
      walBytesPerCall: 1,
      connections: 22,
    });
    expect(medianCosts([costs(21, 1), null, costs(83, null), costs(25, 3)])).toMatchObject({
      serverMicros: 25,
      databaseMicros: 2,
      balancerMicros: null,
    });
    expect(medianCosts([null])).toBeNull();
    expect(
      loadGeneratorCores([
        result(1, { loadGeneratorCpuMicros: 4_000_000, seconds: 5 }),
        result(1, { loadGeneratorCpuMicros: 4_500_000, seconds: 5 }),
        result(1),
      ]),
    ).toBeCloseTo(0.85, 12);
    expect(loadGeneratorCores([result(1)])).toBeNull();
  });
});
