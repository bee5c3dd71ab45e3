import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../src/loadRun.js';
import type { BenchReport } from '../src/report.js';
import { compareRuns, isApart } from '../src/runComparison.js';
import { scenarios } from '../src/scenarios.js';

const [random, , filtered, , categories] = scenarios('/v1/quotes-filter?x', '/v1/quotes-random?y');
const load = (requestsPerSecond: number): LoadResult => ({
  requestsPerSecond,
  latencyP50Ms: 1,
  latencyP99Ms: 3,
  requests: requestsPerSecond * 5,
  errors: 0,
});

/**
 * A run whose quotes-random rounds read `randomShares` of a 50,000 calls/s floor, categories 0.89
 * in one run, and quotes-filter (category + mood + era) `filteredShare` in one run.
 */
function run(randomShares: number[], filteredShare = 0.5): BenchReport {
  return {
    startedAt: '2026-11-26T10:00:00Z',
    machine: 'test',
    connections: 64,
    durationSeconds: 5,
    rounds: randomShares.length,
    measurements: [
      {
        corpusSize: 150000,
        keyPlan: 'platform',
        scenario: random!,
        server: load(0),
        floor: load(50000),
        rounds: randomShares.map((share) => ({
          server: { ...load(share * 50000), costs: null },
          floorRequestsPerSecond: 50000,
        })),
      },
      { corpusSize: 150000, keyPlan: 'platform', scenario: categories!, server: load(44500), floor: load(50000) },
      {
        corpusSize: 150000,
        keyPlan: 'platform',
        scenario: filtered!,
        server: load(filteredShare * 50000),
        floor: load(50000),
      },
    ],
    peakRss: {},
    cold: [],
    bystander: [],
    counting: [],
    index: [],
  };
}

describe('comparing two runs', () => {
  it('gives each ratio of both runs and how far apart they are', () => {
    expect(compareRuns(run([0.6, 0.64, 0.66]), run([0.7, 0.71, 0.5]))).toEqual([
      {
        row: '150,000 | platform | quotes-random, no filter',
        first: 0.64,
        second: 0.7,
        difference: expect.closeTo(0.06, 12),
        firstFloor: 50000,
        secondFloor: 50000,
        tolerance: 0.05,
      },
      {
        row: '150,000 | platform | quotes-categories',
        first: 0.89,
        second: 0.89,
        difference: 0,
        firstFloor: 50000,
        secondFloor: 50000,
        tolerance: 0.05,
      },
      {
        row: '150,000 | platform | quotes-filter, category + mood + era, limit 50, offset 500',
        first: 0.5,
        second: 0.5,
        difference: 0,
        firstFloor: 50000,
        secondFloor: 50000,
        tolerance: 0.1,
      },
    ]);
  });

  it('holds quotes-random, quotes-categories and the mixed traffic to 0.05, every other ratio to 0.1, or all to one tolerance given', () => {
    const apart = (first: BenchReport, second: BenchReport, uniform?: number) =>
      compareRuns(first, second, uniform)
        .filter(isApart)
        .map((c) => c.row);
    // quotes-filter 0.08 apart: within its 0.1.
    expect(apart(run([0.6]), run([0.6], 0.58))).toEqual([]);
    expect(apart(run([0.6]), run([0.6], 0.58), 0.05)).toEqual([
      '150,000 | platform | quotes-filter, category + mood + era, limit 50, offset 500',
    ]);
    expect(apart(run([0.6]), run([0.66]))).toEqual(['150,000 | platform | quotes-random, no filter']);
  });

  it('exits 1 when a ratio is further apart than the tolerance, 0 when none is', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'quotes-bench-compare-'));
    const files = await Promise.all(
      [run([0.6, 0.64, 0.66]), run([0.7, 0.71, 0.5]), run([0.66, 0.68])].map(async (report, index) => {
        const file = join(directory, `${index}.json`);
        await writeFile(file, JSON.stringify(report));
        return file;
      }),
    );
    const script = fileURLToPath(new URL('../dist/compareResults.js', import.meta.url));
    const compare = (...args: string[]) =>
      promisify(execFile)(process.execPath, [script, ...args]).then(
        (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    const apart = await compare(files[0]!, files[1]!);
    expect(apart.code).toBe(1);
    expect(apart.stdout).toContain('| 150,000 | platform | quotes-random, no filter | 0.64 | 0.70 | 0.06 | 0.05: NO |');
    expect(apart.stdout).toContain('1 of 3 ratios further apart than their tolerance');
    const close = await compare(files[0]!, files[2]!);
    expect(close).toMatchObject({ code: 0 });
    expect(close.stdout).toContain('every ratio within their tolerance');
    expect((await compare(files[0]!, files[1]!, '--tolerance', '0.1')).stdout).toContain('every ratio within 0.1');
    expect(await compare(files[0]!)).toMatchObject({
      code: 2,
      stderr: 'compare-results: give two results/latest.json files and a --tolerance of 0 or more\n',
    });
  }, 60_000);
});
