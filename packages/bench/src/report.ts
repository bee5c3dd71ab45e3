import type { LoadResult } from './loadRun.js';
import type { Scenario } from './scenarios.js';

export interface ScenarioMeasurement {
  corpusSize: number;
  keyPlan: string;
  scenario: Scenario;
  server: LoadResult;
  floor: LoadResult;
  mock: LoadResult;
}

export interface BenchReport {
  startedAt: string;
  machine: string;
  connections: number;
  durationSeconds: number;
  measurements: ScenarioMeasurement[];
  /** Server peak RSS per corpus size, bytes. */
  peakRss: Record<number, number | null>;
}

const rps = (value: number) => Math.round(value).toLocaleString('en-US');
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${Math.round(bytes / 1024 / 1024)} MB`);

function verdict(m: ScenarioMeasurement): string {
  const checks: string[] = [];
  if (m.scenario.floorTarget !== null)
    checks.push(
      m.server.requestsPerSecond / m.floor.requestsPerSecond >= m.scenario.floorTarget
        ? 'floor ok'
        : `floor < ${m.scenario.floorTarget}`,
    );
  checks.push(m.server.requestsPerSecond >= 3 * m.mock.requestsPerSecond ? '3x mock ok' : '< 3x mock');
  if (m.scenario.id.startsWith('random')) checks.push(m.server.latencyP99Ms < 25 ? 'p99 ok' : 'p99 >= 25 ms');
  if (m.server.errors > 0) checks.push(`${m.server.errors} errors`);
  return checks.join(', ');
}

export function markdownReport(report: BenchReport): string {
  const lines = [
    `Run ${report.startedAt} on ${report.machine}; ${report.connections} connections, ${report.durationSeconds} s per target and scenario, targets interleaved.`,
    '',
    '| corpus | key | scenario | server req/s | p50 ms | p99 ms | errors | vs floor | vs mock | floor req/s | mock req/s | targets |',
    '|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const m of report.measurements) {
    lines.push(
      `| ${m.corpusSize.toLocaleString('en-US')} | ${m.keyPlan} | ${m.scenario.title} | ${rps(m.server.requestsPerSecond)} | ${m.server.latencyP50Ms} | ${m.server.latencyP99Ms} | ${m.server.errors} | ${ratio(m.server.requestsPerSecond, m.floor.requestsPerSecond)} | ${ratio(m.server.requestsPerSecond, m.mock.requestsPerSecond)} | ${rps(m.floor.requestsPerSecond)} | ${rps(m.mock.requestsPerSecond)} | ${verdict(m)} |`,
    );
  }
  lines.push('', '| corpus | server peak RSS |', '|---:|---:|');
  for (const [size, bytes] of Object.entries(report.peakRss))
    lines.push(`| ${Number(size).toLocaleString('en-US')} | ${mb(bytes)} |`);
  const sizes = [...new Set(report.measurements.map((m) => m.corpusSize))].sort((a, b) => a - b);
  if (sizes.length >= 2) {
    const [small, large] = [sizes[0], sizes[sizes.length - 1]];
    lines.push(
      '',
      `| scenario | req/s at ${small?.toLocaleString('en-US')} | req/s at ${large?.toLocaleString('en-US')} | change |`,
      '|---|---:|---:|---:|',
    );
    for (const m of report.measurements.filter((x) => x.corpusSize === small && x.keyPlan === 'platform')) {
      const other = report.measurements.find(
        (x) => x.corpusSize === large && x.keyPlan === 'platform' && x.scenario.id === m.scenario.id,
      );
      if (!other) continue;
      const change = (other.server.requestsPerSecond / m.server.requestsPerSecond - 1) * 100;
      lines.push(
        `| ${m.scenario.title} | ${rps(m.server.requestsPerSecond)} | ${rps(other.server.requestsPerSecond)} | ${change.toFixed(0)}% |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A grouped bar chart (server, floor, mock requests/s per scenario and corpus size) as plain SVG. */
export function svgChart(report: BenchReport): string {
  const rows = report.measurements;
  const max = Math.max(
    1,
    ...rows.flatMap((m) => [m.server.requestsPerSecond, m.floor.requestsPerSecond, m.mock.requestsPerSecond]),
  );
  const barHeight = 9;
  const groupHeight = barHeight * 3 + 14;
  const labelWidth = 430;
  const plotWidth = 520;
  const height = rows.length * groupHeight + 60;
  const colours = { server: '#2563eb', floor: '#9ca3af', mock: '#f59e0b' } as const;
  const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + plotWidth + 90}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<text x="10" y="18" font-size="13" font-weight="bold">Requests/s at ${report.connections} connections (${escapeXml(report.startedAt)})</text>`,
  ];
  Object.entries(colours).forEach(([name, colour], index) => {
    parts.push(
      `<rect x="${labelWidth + index * 90}" y="28" width="10" height="10" fill="${colour}"/><text x="${labelWidth + index * 90 + 14}" y="37">${name}</text>`,
    );
  });
  rows.forEach((m, index) => {
    const top = 50 + index * groupHeight;
    parts.push(
      `<text x="10" y="${top + 16}">${escapeXml(`${m.corpusSize.toLocaleString('en-US')} · ${m.keyPlan} · ${m.scenario.title}`)}</text>`,
    );
    (['server', 'floor', 'mock'] as const).forEach((name, bar) => {
      const value = m[name].requestsPerSecond;
      const width = Math.max(1, (value / max) * plotWidth);
      const y = top + bar * barHeight;
      parts.push(
        `<rect x="${labelWidth}" y="${y}" width="${width.toFixed(1)}" height="${barHeight - 1}" fill="${colours[name]}"/>`,
      );
      parts.push(`<text x="${labelWidth + width + 4}" y="${y + 8}" font-size="9">${rps(value)}</text>`);
    });
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
