import { rps } from './figureText.js';
import type { BenchReport } from './report.js';
import { floorShare, type RoundedMeasurement } from './roundSummary.js';

/** One ratio of two runs side by side. */
export interface ComparedRatio {
  row: string;
  first: number | null;
  second: number | null;
  /** How far apart; null where either run lacks the ratio. */
  difference: number | null;
  firstFloor: number;
  secondFloor: number;
  /** How far apart the two may be (tolerance). */
  tolerance: number;
}

interface NamedRow {
  row: string;
  measurement: RoundedMeasurement;
  /** The headline ratios (quotes-random, quotes-categories, the mixed traffic's warm rounds) on the platform keys. */
  headline: boolean;
}

/**
 * How far apart two runs' ratios may be: 0.05 on the headline ratios (quotes-random and
 * quotes-categories unfiltered, the mixed traffic), 0.1 on every other; `uniform` for all alike.
 */
export function tolerance(headline: boolean, uniform?: number): number {
  return uniform ?? (headline ? 0.05 : 0.1);
}

const headlineScenarios = new Set(['random', 'categories', 'mixed']);

function rows(report: BenchReport): NamedRow[] {
  const size = (corpusSize: number) => corpusSize.toLocaleString('en-US');
  return [
    ...report.measurements.map((m) => ({
      row: `${size(m.corpusSize)} | ${m.keyPlan} | ${m.scenario.title}`,
      measurement: m,
      headline: m.keyPlan === 'platform' && headlineScenarios.has(m.scenario.id),
    })),
    ...report.measurements.flatMap((m) =>
      m.coldRound
        ? [
            {
              row: `${size(m.corpusSize)} | ${m.keyPlan} | ${m.scenario.title}, first round after start`,
              measurement: { server: m.coldRound.server, floor: m.coldRound.floor, slices: m.coldRound.slices },
              headline: false,
            },
          ]
        : [],
    ),
    ...(report.journal ?? []).map((m) => ({
      row: `${size(m.corpusSize)} | journal / none | ${m.scenario.title}`,
      measurement: m,
      headline: false,
    })),
    ...(report.routes ?? []).map((m) => ({
      row: `${size(m.corpusSize)} | ${m.scenario.title} | ${m.route}`,
      measurement: m,
      headline: false,
    })),
  ];
}

/**
 * Every ratio to the floor of `second` beside the same row of `first` (rows only one run has,
 * too), each with its tolerance (`uniform` for every row, else by tolerance()).
 */
export function compareRuns(first: BenchReport, second: BenchReport, uniform?: number): ComparedRatio[] {
  const before = new Map(rows(first).map((one) => [one.row, one]));
  const compared: ComparedRatio[] = [];
  for (const { row, measurement, headline } of rows(second)) {
    const earlier = before.get(row)?.measurement;
    before.delete(row);
    const a = earlier ? (floorShare(earlier)?.median ?? null) : null;
    const b = floorShare(measurement)?.median ?? null;
    compared.push({
      row,
      first: a,
      second: b,
      difference: a === null || b === null ? null : Math.abs(b - a),
      firstFloor: earlier?.floor.requestsPerSecond ?? 0,
      secondFloor: measurement.floor.requestsPerSecond,
      tolerance: tolerance(headline, uniform),
    });
  }
  for (const [row, { measurement, headline }] of before)
    compared.push({
      row,
      first: floorShare(measurement)?.median ?? null,
      second: null,
      difference: null,
      firstFloor: measurement.floor.requestsPerSecond,
      secondFloor: 0,
      tolerance: tolerance(headline, uniform),
    });
  return compared;
}

/** Whether a compared ratio is further apart than its tolerance. */
export const isApart = (c: ComparedRatio) => c.difference !== null && c.difference > c.tolerance + 1e-9;

/** The comparison as a Markdown table, each row judged against its tolerance. */
export function comparisonTable(compared: readonly ComparedRatio[]): string {
  const ratio = (value: number | null) => (value === null ? '-' : value.toFixed(2));
  const lines = [
    '| row | first run | second run | apart | within | floor req/s, first / second |',
    '|---|---:|---:|---:|---|---:|',
    ...compared.map(
      (c) =>
        `| ${c.row} | ${ratio(c.first)} | ${ratio(c.second)} | ${ratio(c.difference)} | ${c.difference === null ? 'not compared' : `${c.tolerance}: ${isApart(c) ? 'NO' : 'yes'}`} | ${rps(c.firstFloor)} / ${rps(c.secondFloor)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
