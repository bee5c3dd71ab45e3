import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../src/loadRun.js';
import { type BenchReport, markdownReport, svgChart } from '../src/report.js';
import { scenarios } from '../src/scenarios.js';

const load = (requestsPerSecond: number, p99 = 5, errors = 0): LoadResult => ({
  requestsPerSecond,
  latencyP50Ms: 2,
  latencyP99Ms: p99,
  requests: requestsPerSecond * 10,
  errors,
});

const [random, , , , categories] = scenarios('/v1/quotes-filter?x', '/v1/quotes-random?y');

function report(measurements: BenchReport['measurements']): BenchReport {
  return {
    startedAt: '2026-11-23T10:00:00Z',
    machine: 'test',
    connections: 64,
    durationSeconds: 10,
    measurements,
    peakRss: { 150000: 120 * 2 ** 20 },
  };
}

describe('the benchmark report', () => {
  it('gives ratios against the floor and the mock and judges each target', () => {
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
      ]),
    );
    const [randomRow, categoriesRow] = text.split('\n').filter((line) => line.startsWith('| 150,000 | platform'));
    expect(randomRow).toContain('| 0.75 | 4.00 |');
    expect(randomRow).toContain('floor ok, 3x mock ok, p99 ok');
    expect(categoriesRow).toContain('| 0.50 | 2.00 |');
    expect(categoriesRow).toContain('floor < 0.8, < 3x mock, 3 errors');
    expect(text).toContain('| 150,000 | 120 MB |');
  });

  it('compares the two corpus sizes', () => {
    const text = markdownReport(
      report([
        {
          corpusSize: 150000,
          keyPlan: 'platform',
          scenario: random!,
          server: load(5000),
          floor: load(8000),
          mock: load(1500),
        },
        {
          corpusSize: 1500000,
          keyPlan: 'platform',
          scenario: random!,
          server: load(4500),
          floor: load(8000),
          mock: load(1500),
        },
      ]),
    );
    expect(text).toContain('| quotes-random, no filter | 5,000 | 4,500 | -10% |');
  });

  it('draws one bar per target and scenario', () => {
    const svg = svgChart(
      report([
        {
          corpusSize: 150000,
          keyPlan: 'platform',
          scenario: random!,
          server: load(6000),
          floor: load(8000),
          mock: load(1500),
        },
      ]),
    );
    // Bars are 8 px high; the legend's swatches are 10.
    expect(svg.match(/<rect x="430" y="\d+" width="[\d.]+" height="8"/g)).toHaveLength(3);
    expect(svg).toContain('6,000');
  });
});
