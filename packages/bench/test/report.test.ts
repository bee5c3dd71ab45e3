import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../src/loadRun.js';
import { type BenchReport, markdownReport, summaryLine, svgChart } from '../src/report.js';
import { mixedScenario, scenarios } from '../src/scenarios.js';

const load = (requestsPerSecond: number, p99 = 5, errors = 0): LoadResult => ({
  requestsPerSecond,
  latencyP50Ms: 2,
  latencyP99Ms: p99,
  requests: requestsPerSecond * 10,
  errors,
});

const [random, , , , categories] = scenarios('/v1/quotes-filter?x', '/v1/quotes-random?y');

function report(measurements: BenchReport['measurements'], extra: Partial<BenchReport> = {}): BenchReport {
  return {
    startedAt: '2026-11-23T10:00:00Z',
    machine: 'test',
    connections: 64,
    durationSeconds: 10,
    measurements,
    peakRss: { 150000: 120 * 2 ** 20 },
    cold: [],
    bystander: [],
    counting: [],
    index: [],
    ...extra,
  };
}

describe('the benchmark report', () => {
  it('gives ratios against the same-bytes floor and judges each target', () => {
    const text = markdownReport(
      report([
        {
          corpusSize: 150000,
          keyPlan: 'platform',
          scenario: random!,
          server: load(6000),
          floor: load(8000),
          mock: load(1500),
        },
        {
          corpusSize: 150000,
          keyPlan: 'platform',
          scenario: categories!,
          server: load(4000, 30, 3),
          floor: load(8000),
          mock: load(2000),
        },
        {
          corpusSize: 150000,
          keyPlan: 'platform',
          scenario: mixedScenario(2000, 20000),
          server: load(900),
          floor: load(2000),
        },
      ]),
    );
    const [randomRow, categoriesRow, mixedRow] = text
      .split('\n')
      .filter((line) => line.startsWith('| 150,000 | platform'));
    expect(randomRow).toContain('| 0.75 | 8,000 | 4.00 | >= 0.6 ok |');
    expect(categoriesRow).toContain('| 0.50 | 8,000 | 2.00 | < 0.85, 3 errors |');
    expect(mixedRow).toContain('| 0.45 | 2,000 | - | < 0.5 |');
    expect(text).toContain('| 150,000 | 120 MB | < 300 MB ok |');
  });

  it('judges the cold, bystander and index figures', () => {
    const text = markdownReport(
      report([], {
        cold: [
          {
            corpusSize: 150000,
            moment: 'after start',
            clients: 1,
            count: 200,
            p50Ms: 3,
            p99Ms: 8,
            maxMs: 9,
            failures: 0,
          },
          {
            corpusSize: 1500000,
            moment: 'after reload',
            clients: 4,
            count: 200,
            p50Ms: 30,
            p99Ms: 900,
            maxMs: 950,
            failures: 0,
          },
        ],
        bystander: [{ corpusSize: 150000, alone: load(3000, 10), beside: load(2000, 25), flood: load(1000) }],
        index: [
          {
            size: 150000,
            combinations: 200,
            bitsetMicros: 99,
            roaringMicros: 900,
            bitsetBytes: 2 ** 20,
            roaringBytes: 2 ** 19,
            bitsetBuildMs: 90,
          },
        ],
      }),
    );
    expect(text.split('\n')).toEqual(
      expect.arrayContaining([
        '| 150,000 | after start | 1 | 200 | 3 | 8 | 9 | 0 | < 10 ms ok |',
        '| 1,500,000 | after reload | 4 | 200 | 30 | 900 | 950 | 0 | < 40 ms missed |',
        '| 150,000 | 10 ms | 25 ms | 2.50 | 1,000 | 0 | <= 2x missed |',
        '| 150,000 | 99 µs | 900 µs | 1 MB | 1 MB | 90 ms |',
      ]),
    );
  });

  it('compares the two corpus sizes', () => {
    const text = markdownReport(
      report([
        { corpusSize: 150000, keyPlan: 'platform', scenario: random!, server: load(5000), floor: load(8000) },
        { corpusSize: 1500000, keyPlan: 'platform', scenario: random!, server: load(4500), floor: load(8000) },
      ]),
    );
    expect(text).toContain('| quotes-random, no filter | 5,000 | 4,500 | -10% |');
  });

  it('sums a run up in one sentence per corpus size', () => {
    const line = summaryLine(
      report(
        [
          { corpusSize: 150000, keyPlan: 'platform', scenario: random!, server: load(3000), floor: load(10000) },
          { corpusSize: 150000, keyPlan: 'platform', scenario: categories!, server: load(5000), floor: load(10000) },
          { corpusSize: 150000, keyPlan: 'professional', scenario: random!, server: load(100), floor: load(10000) },
          {
            corpusSize: 150000,
            keyPlan: 'platform',
            scenario: mixedScenario(2000, 20000),
            server: load(2500),
            floor: load(10000),
          },
          { corpusSize: 1500000, keyPlan: 'platform', scenario: random!, server: load(2000), floor: load(10000) },
        ],
        {
          peakRss: { 150000: 200 * 2 ** 20, 1500000: 280 * 2 ** 20 },
          counting: [{ corpusSize: 150000, sent: 100, errors: 0, usageSays: 99 }],
        },
      ),
    );
    expect(line).toBe(
      "Latest run (2026-11-23, test), at 150,000 / 1,500,000 quotes: the server answered 0.30-0.50 / 0.20-0.20 of the same-bytes floor's requests/s on single URLs and 0.25 / n/a on mixed traffic; peak RSS 200 MB / 280 MB; counted calls counted NOT exactly.",
    );
  });

  it('draws the server and its floor for each scenario, each group on its own scale', () => {
    const svg = svgChart(
      report([{ corpusSize: 150000, keyPlan: 'platform', scenario: random!, server: load(6000), floor: load(8000) }]),
    );
    // Bars are 8 px high; the legend's swatches are 10.
    expect(svg.match(/<rect x="470" y="\d+" width="[\d.]+" height="8"/g)).toHaveLength(2);
    expect(svg).toContain('6,000 (0.75)');
    expect(svg).toContain('width="480.0"');
  });
});
