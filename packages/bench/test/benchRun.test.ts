import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { findDebianTool, haproxyTool } from '@quotes/cluster';
import type { BenchReport } from '../src/report.js';
import { routes } from '../src/routeReport.js';
import { roundCosts } from '../src/roundSummary.js';

const mainScript = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const out = await mkdtemp(join(tmpdir(), 'quotes-bench-run-'));
afterAll(() => rm(out, { recursive: true, force: true }));

/**
 * The whole bench, end to end, on a tiny corpus and one-second duets (`--long`: every phase): every step must still run
 * (a step that stops, such as a reload waiting on a prompt for --yes, would otherwise go
 * unnoticed until the next full run). No figure is judged here: speed is never asserted in tests.
 */
describe('npm run bench, tiny', () => {
  it('runs every step and writes a complete report', async () => {
    await promisify(execFile)(
      process.execPath,
      [
        mainScript,
        ...['--long', '--sizes', '3000', '--duration', '1', '--warmup', '0', '--rounds', '1', '--connections', '8'],
        ...['--mixed-urls', '40', '--cold-calls', '8', '--counted-calls', '300', '--route-scenarios', 'random'],
        ...['--history-keys', '1000', '--history-rounds', '1'],
        // Its own PostgreSQL and kept corpus, not the repository's .data/bench a real run keeps.
        ...['--out', out, '--corpora', join(out, 'corpora')],
      ],
      { timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const report = JSON.parse(await readFile(join(out, 'latest.json'), 'utf8')) as BenchReport;
    const scenarios = new Set(report.measurements.map((measurement) => measurement.scenario.id));
    expect([...scenarios].sort()).toEqual(
      ['categories', 'filter-3', 'filter-deep', 'mixed', 'random', 'random-filtered', 'usage'].sort(),
    );
    expect(report.rounds).toBe(1);
    expect(report.durationSeconds).toBe(1);
    for (const measurement of report.measurements) {
      const name = `${measurement.keyPlan} ${measurement.scenario.id}`;
      expect(measurement.server.requests, name).toBeGreaterThan(0);
      // Latencies to the microsecond: a sub-millisecond call does not read 0.
      expect(measurement.server.latencyP50Ms, name).toBeGreaterThan(0);
      expect(measurement.server.errors, name).toBe(0);
      expect(measurement.floor.requests, name).toBeGreaterThan(0);
      // A duet: the server and the floor at the same moment, their seconds paired; more rounds are the unit tests'.
      expect(measurement.rounds, name).toHaveLength(1);
      expect(measurement.floorRuns, name).toHaveLength(1);
      // The counted key's run is its 300 calls, over within its first second: no whole second to pair.
      if (measurement.keyPlan !== 'professional') expect(measurement.slices?.length, name).toBeGreaterThan(0);
      for (const run of [
        ...(measurement.rounds ?? []).map((round) => round.server),
        ...(measurement.floorRuns ?? []),
      ]) {
        expect(run.costs?.serverMicros, name).toBeGreaterThanOrEqual(0);
        expect(run.loadGeneratorCpuMicros, name).toBeGreaterThan(0);
      }
    }
    expect(report.cold.map((cold) => `${cold.moment}, ${cold.clients}`)).toEqual([
      'after start, 1',
      'the same calls again, 1',
      'after start, 4',
      'the same calls again, 4',
      'after reload, 1',
      'after reload, 4',
    ]);
    expect(report.cold.every((cold) => cold.failures === 0 && cold.count === 8)).toBe(true);
    // The mixed traffic met first, as a round of its own, and the journal's row.
    const mixed = report.measurements.find((one) => one.scenario.id === 'mixed');
    expect(mixed?.coldRound?.server.requests).toBeGreaterThan(0);
    expect(report.journal).toHaveLength(1);
    expect(report.bystander).toHaveLength(1);
    expect(report.bystander[0]?.alone.latencyP99Ms).toBeGreaterThan(0);
    expect(report.counting).toEqual([{ corpusSize: 3000, sent: 300, errors: 0, usageSays: 300 }]);
    expect(report.peakRss[3000]).toBeGreaterThan(0);
    // The routes: HAProxy's rows where haproxy is installed, else a note saying why not. Named
    // by HAPROXY_PATH (as CI does), haproxy must run: a broken path fails here, never a skip.
    const haproxy = findDebianTool(haproxyTool);
    if (process.env[haproxyTool.variable]) expect(haproxy).toEqual({ path: process.env[haproxyTool.variable] });
    const direct = [routes.direct, routes.oneKey, routes.historyOff];
    expect(report.routes?.map((route) => route.route)).toEqual(
      'path' in haproxy ? [...direct, routes.balanced(1), routes.balanced(2), routes.balanced(3)] : direct,
    );
    expect(report.routeNotes).toEqual('path' in haproxy ? [] : [expect.stringMatching(/^HAProxy rows skipped: /)]);
    for (const route of report.routes ?? []) {
      expect(route.scenario.id, route.route).toBe('random');
      expect(route.server.errors, route.route).toBe(0);
      expect(route.rounds, route.route).toHaveLength(1);
      const costs = roundCosts(route).server;
      expect(costs?.serverMicros, route.route).toBeGreaterThan(0);
      expect(costs?.transactionsPerCall, route.route).toBeGreaterThanOrEqual(0);
      if (route.route.startsWith('HAProxy')) expect(costs?.balancerMicros, route.route).not.toBeNull();
    }
    expect(report.countedCosts?.map((counted) => counted.costs?.serverMicros)).toEqual([expect.any(Number)]);
    expect(report.historyMemory).toMatchObject({ ordinaryKeys: 1000, boundKeys: 20, rounds: 1 });
    expect(report.historyMemory?.ordinaryBytesPerKey).toBeGreaterThan(0);
    expect(await readFile(join(out, 'latest.md'), 'utf8')).toContain('quotes-usage says');
    expect(await readFile(join(out, 'latest.svg'), 'utf8')).toMatch(/^<svg/);
  }, 300_000);
});
