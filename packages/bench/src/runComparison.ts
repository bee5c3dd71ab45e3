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
}

interface NamedRow {
  row: string;
  measurement: RoundedMeasurement;
}

function rows(report: BenchReport): NamedRow[] {
  const size = (corpusSize: number) => corpusSize.toLocaleString('en-US');
  return [
    ...report.measurements.map((m) => ({
      row: `${size(m.corpusSize)} | ${m.keyPlan} | ${m.scenario.title}`,
      measurement: m,
    })),
    ...(report.routes ?? []).map((m) => ({
      row: `${size(m.corpusSize)} | ${m.scenario.title} | ${m.route}`,
      measurement: m,
    })),
  ];
}

/** Every ratio to the floor of `second` beside the same row of `first` (rows only one run has, too). */
export function compareRuns(first: BenchReport, second: BenchReport): ComparedRatio[] {
  const before = new Map(rows(first).map((one) => [one.row, one.measurement]));
  const compared: ComparedRatio[] = [];
  for (const { row, measurement } of rows(second)) {
    const earlier = before.get(row);
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
    });
  }
  for (const [row, measurement] of before)
    compared.push({
      row,
      first: floorShare(measurement)?.median ?? null,
      second: null,
      difference: null,
      firstFloor: measurement.floor.requestsPerSecond,
      secondFloor: 0,
    });
  return compared;
}

/** The comparison as a Markdown table, each row judged against `tolerance`. */
export function comparisonTable(compared: readonly ComparedRatio[], tolerance: number): string {
  const ratio = (value: number | null) => (value === null ? '-' : value.toFixed(2));
  const lines = [
    `| row | first run | second run | apart | within ${tolerance} | floor req/s, first / second |`,
    '|---|---:|---:|---:|---|---:|',
    ...compared.map(
      (c) =>
        `| ${c.row} | ${ratio(c.first)} | ${ratio(c.second)} | ${ratio(c.difference)} | ${c.difference === null ? 'not compared' : c.difference <= tolerance + 1e-9 ? 'yes' : 'NO'} | ${rps(c.firstFloor)} / ${rps(c.secondFloor)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
