import { cores, micros, ms, quotient, ratio, roundSpread, rps } from './figureText.js';
import type { IndexMicroResult } from './indexMicro.js';
import type { LatencySample } from './latencySample.js';
import type { LoadResult } from './loadRun.js';
import { type RouteSection, routeTables } from './routeReport.js';
import { floorShare, loadGeneratorCores, type RoundedMeasurement, roundCosts } from './roundSummary.js';
import type { Scenario } from './scenarios.js';
import type { DuetRound } from './duetRun.js';

/** One scenario against the same-bytes floor (floorApp.ts): the medians of its rounds, and the rounds. */
export interface ScenarioMeasurement extends RoundedMeasurement {
  corpusSize: number;
  keyPlan: string;
  scenario: Scenario;
  /** One run of the Prism mock after the rounds. */
  mock?: LoadResult;
  /** The mixed traffic's first round after the server started, without its warm-up (duets only). */
  coldRound?: DuetRound;
}

/** The server with its journal of counted calls (0044) against the same server without one. */
export interface JournalMeasurement extends RoundedMeasurement {
  corpusSize: number;
  scenario: Scenario;
}

export interface ColdMeasurement extends LatencySample {
  corpusSize: number;
  /** 'the same calls again' is the reference: those calls seen once, at the same concurrency. */
  moment: 'after start' | 'the same calls again' | 'after reload';
  /** Calls in flight at once. */
  clients: number;
}

export interface BystanderMeasurement {
  corpusSize: number;
  /** One key's quotes-random on its own, then while another key floods never-seen combinations. */
  alone: LoadResult;
  beside: LoadResult;
  flood: LoadResult;
  /** The same bystander calls at the same-bytes floor while the flood goes to the server: what the machine alone does to a p99. */
  floorBeside?: LoadResult;
  /** Those calls at the floor with nothing else running. */
  floorAlone?: LoadResult;
}

/** A capped key's counted calls, then what its quotes-usage says: the count must be exact. */
/** The floor's bystander p99 alone and beside the flood, with their ratio (the machine's share). */
function floorBystander(b: BystanderMeasurement): string {
  const floor = b.floorBeside;
  const alone = b.floorAlone;
  if (!floor || !alone) return '-';
  const factor = quotient(floor.latencyP99Ms, alone.latencyP99Ms);
  return `${ms(alone.latencyP99Ms)} / ${ms(floor.latencyP99Ms)} ms (${factor?.toFixed(2) ?? 'n/a'})`;
}

export interface CountingMeasurement {
  corpusSize: number;
  sent: number;
  /** Answers other than 200 (none expected: the key stays within its allowance). */
  errors: number;
  usageSays: number | null;
}

/** The route, history and scaling figures (routeReport.ts) are optional: reports before them lack them. */
export interface BenchReport extends Partial<RouteSection> {
  startedAt: string;
  machine: string;
  /** How the ratios were measured; reports before duets lack it (they alternated). */
  method?: 'duet' | 'alternating';
  connections: number;
  /** Seconds of each measured run (of each round, in reports with rounds). */
  durationSeconds: number;
  /** Seconds of warm-up before each measured run; absent in reports from before rounds. */
  warmupSeconds?: number;
  /** Rounds per scenario and target; absent in reports from before rounds (one run each). */
  rounds?: number;
  measurements: ScenarioMeasurement[];
  /** Server peak RSS per corpus size, bytes: the highest of its phases'. */
  peakRss: Record<number, number | null>;
  /** Each phase's own peak RSS of the measured server (absent in reports from before phases). */
  phaseRss?: PhaseRss[];
  cold: ColdMeasurement[];
  bystander: BystanderMeasurement[];
  counting: CountingMeasurement[];
  index: IndexMicroResult[];
  /** What holding answers for their journal line costs (absent in reports from before it). */
  journal?: JournalMeasurement[];
}

export interface PhaseRss {
  corpusSize: number;
  /** `start`: from launch to ready (the index built, the quotes held); then the bench's phases. */
  phase: string;
  bytes: number | null;
}

/** The targets that are not ratios to the floor (those are each scenario's `floorTarget`). */
export const targets = {
  /** After a reload there is no seen reference: its p99 in milliseconds. */
  coldP99Ms: (corpusSize: number) => (corpusSize > 150_000 ? 40 : 10),
  /** Never-seen combinations after start: p99 at most this many times the same calls' once seen. */
  coldFactor: 1.5,
  bystanderFactor: 3,
  /** The mixed traffic's first round after start: p99 at most this many times the warm rounds', ratio at least this. */
  coldRoundP99Factor: 2,
  coldRoundFloorShare: 0.4,
  peakRssBytes: 300 * 1024 * 1024,
} as const;

const share = (part: number, whole: number) => (whole > 0 ? `${Math.round((100 * part) / whole)}%` : '-');
const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${Math.round(bytes / 1024 / 1024)} MB`);
const size = (corpusSize: number) => corpusSize.toLocaleString('en-US');

function verdict(m: ScenarioMeasurement): string {
  const checks: string[] = [];
  const share = floorShare(m)?.median ?? null;
  if (m.scenario.floorTarget !== null && m.keyPlan === 'platform')
    checks.push(
      share === null
        ? 'not judged'
        : share >= m.scenario.floorTarget
          ? `>= ${m.scenario.floorTarget} ok`
          : `< ${m.scenario.floorTarget}`,
    );
  if (m.server.errors > 0) checks.push(`${m.server.errors} errors`);
  return checks.join(', ');
}

/** A blank line and a Markdown table of `items`, one row each; nothing when there are none. */
function section<T>(items: readonly T[], header: string, alignment: string, row: (item: T) => string): string[] {
  return items.length === 0 ? [] : ['', header, alignment, ...items.map(row)];
}

/** The first lines: how the run was made, then how fast the machine was during it. */
function method(report: BenchReport): string[] {
  const duet = report.method === 'duet';
  const lines = duet
    ? [
        `Run ${report.startedAt} on ${report.machine}; ${report.connections} connections; a duet: each scenario's server and floor measured at the same moment, each side (its process, its load generator, and PostgreSQL on the server's side) on a core of its own, the sides swapping cores each round; ${report.rounds} rounds of ${report.durationSeconds} s after ${report.warmupSeconds ?? 0} s of warm-up each, both sides sent the same requests; the floor answers every URL with the status, headers and body the server answered it with.`,
        '',
        "A ratio is the server's answers over the floor's in the same seconds, summed over every round, with the lowest and highest second's ratio beside it; every other figure is the median of the rounds. CPU per call is each process's user + system time over the measured run (`/proc`); the load generator's is its cores busy.",
      ]
    : report.rounds === undefined
      ? [
          `Run ${report.startedAt} on ${report.machine}; ${report.connections} connections, ${report.durationSeconds} s per target and scenario, targets interleaved, one run each; the floor answers every URL with the bytes the server answered it with.`,
        ]
      : [
          `Run ${report.startedAt} on ${report.machine}; ${report.connections} connections; each scenario in ${report.rounds} rounds of ${report.durationSeconds} s per target, each run after ${report.warmupSeconds ?? 0} s of warm-up in the same load generator process, the floor and the server alternating (floor, server, floor, ..., floor) and sent the same requests; the floor answers every URL with the status, headers and body the server answered it with.`,
          '',
          "A ratio is the median of its rounds' ratios, each round's server against the floor interpolated between the floor runs around it, with the lowest and highest round beside it; every other figure is the median of the rounds. CPU per call is each process's user + system time over the measured run (`/proc`); the load generator's is its cores busy.",
        ];
  const single = report.measurements.filter((m) => m.keyPlan === 'platform');
  if (single.length === 0) return lines;
  const floorRates = single.map((m) => m.floor.requestsPerSecond);
  const floorMicros = single.flatMap((m) => roundCosts(m).floor?.serverMicros ?? []);
  const range = (values: number[], text: (value: number) => string) => {
    const [low, high] = [text(Math.min(...values)), text(Math.max(...values))];
    return low === high ? low : `${low}-${high}`;
  };
  const costs = floorMicros.length === 0 ? '' : ` at ${range(floorMicros, micros)} µs of CPU a call`;
  lines.push(
    '',
    `How fast the machine was: the same-bytes floor answered ${range(floorRates, rps)} calls/s across the scenarios${costs}.`,
  );
  return lines;
}

export function markdownReport(report: BenchReport): string {
  const duet = report.method === 'duet';
  const lines = [
    ...method(report),
    '',
    `| corpus | key | scenario | server req/s | p50 ms | p99 ms | errors | vs same-bytes floor | ${duet ? 'seconds' : 'rounds'}: lowest-highest | floor req/s | server µs/call | PostgreSQL µs/call | floor µs/call | load generator cores at server / floor | vs mock | target |`,
    '|---:|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---|',
  ];
  for (const m of report.measurements) {
    const share = floorShare(m);
    const costs = roundCosts(m);
    const generator = `${cores(loadGeneratorCores(m.rounds?.map((round) => round.server) ?? []))} / ${cores(loadGeneratorCores(m.floorRuns ?? []))}`;
    lines.push(
      `| ${size(m.corpusSize)} | ${m.keyPlan} | ${m.scenario.title} | ${rps(m.server.requestsPerSecond)} | ${ms(m.server.latencyP50Ms)} | ${ms(m.server.latencyP99Ms)} | ${m.server.errors} | ${share?.median.toFixed(2) ?? 'n/a: floor 0 req/s'} | ${roundSpread(share)} | ${rps(m.floor.requestsPerSecond)} | ${micros(costs.server?.serverMicros)} | ${micros(costs.server?.databaseMicros)} | ${micros(costs.floor?.serverMicros)} | ${generator} | ${m.mock ? ratio(m.server.requestsPerSecond, m.mock.requestsPerSecond, 'n/a: mock 0 req/s') : '-'} | ${verdict(m)} |`,
    );
  }
  lines.push(
    ...section(
      report.cold,
      '| corpus | never-seen combinations | at a time | calls | p50 ms | p99 ms | max ms | failures | target p99 |',
      '|---:|---|---:|---:|---:|---:|---:|---:|---|',
      (c) => {
        const limit = targets.coldP99Ms(c.corpusSize);
        // After start, against the same calls once seen at the same concurrency; after a reload, in milliseconds.
        const seen = report.cold.find(
          (other) =>
            other.corpusSize === c.corpusSize && other.clients === c.clients && other.moment === 'the same calls again',
        );
        const factor = c.moment === 'after start' && seen ? quotient(c.p99Ms, seen.p99Ms) : null;
        const target =
          c.moment === 'the same calls again'
            ? '(reference)'
            : c.moment === 'after start' && seen
              ? `<= ${targets.coldFactor}x seen: ${factor?.toFixed(2) ?? 'n/a'}x ${factor !== null && factor <= targets.coldFactor ? 'ok' : 'missed'}`
              : `< ${limit} ms ${c.p99Ms < limit ? 'ok' : 'missed'}`;
        return `| ${size(c.corpusSize)} | ${c.moment} | ${c.clients} | ${c.count} | ${ms(c.p50Ms)} | ${ms(c.p99Ms)} | ${ms(c.maxMs)} | ${c.failures} | ${target} |`;
      },
    ),
    ...section(
      report.measurements.filter((m) => m.coldRound !== undefined),
      '| corpus | mixed traffic, first round after start | server req/s | p99 ms | warm rounds p99 ms | p99 cold / warm | vs same-bytes floor | target |',
      '|---:|---|---:|---:|---:|---:|---:|---|',
      (m) => {
        const cold = m.coldRound as DuetRound;
        const warmP99 = m.server.latencyP99Ms;
        const factor = quotient(cold.server.latencyP99Ms, warmP99);
        const share = floorShare({ ...cold, rounds: undefined, floorRuns: undefined })?.median ?? null;
        const ok =
          factor !== null &&
          factor <= targets.coldRoundP99Factor &&
          share !== null &&
          share >= targets.coldRoundFloorShare;
        return `| ${size(m.corpusSize)} | ${m.scenario.title} | ${rps(cold.server.requestsPerSecond)} | ${ms(cold.server.latencyP99Ms)} | ${ms(warmP99)} | ${factor?.toFixed(2) ?? '-'} | ${share?.toFixed(2) ?? '-'} | p99 <= ${targets.coldRoundP99Factor}x, >= ${targets.coldRoundFloorShare} ${ok ? 'ok' : 'missed'} |`;
      },
    ),
    ...section(
      report.journal ?? [],
      '| corpus | scenario | req/s with the journal | without | with / without | p99 ms with / without | server µs/call with | without | journal µs/call |',
      '|---:|---|---:|---:|---:|---|---:|---:|---:|',
      (j) => {
        const share = floorShare(j);
        const costs = roundCosts(j);
        const withMicros = costs.server?.serverMicros ?? null;
        const withoutMicros = costs.floor?.serverMicros ?? null;
        const difference = withMicros === null || withoutMicros === null ? null : withMicros - withoutMicros;
        return `| ${size(j.corpusSize)} | ${j.scenario.title} | ${rps(j.server.requestsPerSecond)} | ${rps(j.floor.requestsPerSecond)} | ${share?.median.toFixed(2) ?? '-'} (${roundSpread(share)}) | ${ms(j.server.latencyP99Ms)} / ${ms(j.floor.latencyP99Ms)} | ${micros(withMicros)} | ${micros(withoutMicros)} | ${micros(difference)} |`;
      },
    ),
    ...section(
      report.bystander,
      '| corpus | bystander p99 alone | p99 beside the flood | ratio | flood req/s | of which 429 | flood errors | the floor: p99 alone / beside the flood | target |',
      '|---:|---:|---:|---:|---:|---:|---:|---|---|',
      (b) => {
        // A p99 alone of 0 ms (read to the whole millisecond) gives no ratio, so no verdict either.
        const factor = quotient(b.beside.latencyP99Ms, b.alone.latencyP99Ms);
        const judged = factor === null ? 'not judged' : factor <= targets.bystanderFactor ? 'ok' : 'missed';
        return `| ${size(b.corpusSize)} | ${ms(b.alone.latencyP99Ms)} ms | ${ms(b.beside.latencyP99Ms)} ms | ${factor?.toFixed(2) ?? 'n/a: 0 ms alone'} | ${rps(b.flood.requestsPerSecond)} | ${b.flood.refused === undefined ? '-' : share(b.flood.refused, b.flood.requests)} | ${b.flood.errors} | ${floorBystander(b)} | <= ${targets.bystanderFactor}x ${judged} |`;
      },
    ),
    ...section(
      report.counting,
      '| corpus | counted calls sent | not 200 | quotes-usage says | target |',
      '|---:|---:|---:|---:|---|',
      (c) => {
        const exact = c.errors === 0 && c.usageSays === c.sent;
        return `| ${size(c.corpusSize)} | ${rps(c.sent)} | ${c.errors} | ${c.usageSays === null ? '-' : rps(c.usageSays)} | exact ${exact ? 'ok' : 'missed'} |`;
      },
    ),
    ...routeTables(report),
    ...section(
      report.index,
      '| corpus | one filter on Uint32Array bitsets | on Roaring (roaring-wasm) | bitsets | Roaring | bitset build |',
      '|---:|---:|---:|---:|---:|---:|',
      (i) =>
        `| ${size(i.size)} | ${i.bitsetMicros} µs | ${i.roaringMicros} µs | ${mb(i.bitsetBytes)} | ${mb(i.roaringBytes)} | ${i.bitsetBuildMs} ms |`,
    ),
  );
  const phases = [...new Set((report.phaseRss ?? []).map((peak) => peak.phase))];
  lines.push(
    '',
    `| corpus | server peak RSS |${phases.map((phase) => ` ${phase} |`).join('')} target |`,
    `|---:|---:|${phases.map(() => '---:|').join('')}---|`,
  );
  for (const [corpusSize, bytes] of Object.entries(report.peakRss)) {
    const ofSize = (report.phaseRss ?? []).filter((peak) => peak.corpusSize === Number(corpusSize));
    const cells = phases.map((phase) => ` ${mb(ofSize.find((peak) => peak.phase === phase)?.bytes ?? null)} |`);
    lines.push(
      `| ${size(Number(corpusSize))} | ${mb(bytes)} |${cells.join('')} ${bytes !== null && bytes < targets.peakRssBytes ? '< 300 MB ok' : '< 300 MB missed'} |`,
    );
  }
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
      const growth = quotient(other.server.requestsPerSecond, m.server.requestsPerSecond);
      const change = growth === null ? 'n/a: 0 req/s' : `${((growth - 1) * 100).toFixed(0)}%`;
      lines.push(
        `| ${m.scenario.title} | ${rps(m.server.requestsPerSecond)} | ${rps(other.server.requestsPerSecond)} | ${change} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The run's headline in one sentence, per corpus size: the server's requests/s as a share of the
 * same-bytes floor's on single URLs (their range) and on mixed traffic, peak RSS, and whether the
 * counted calls were counted exactly. The root README quotes it.
 */
export function summaryLine(report: BenchReport): string {
  const sizes = [...new Set(report.measurements.map((m) => m.corpusSize))].sort((a, b) => a - b);
  const platform = (corpusSize: number) =>
    report.measurements.filter((m) => m.corpusSize === corpusSize && m.keyPlan === 'platform');
  // A row whose floor answered nothing has no share: it is left out, and a size without any reads n/a.
  const shares = (list: ScenarioMeasurement[]) => list.flatMap((m) => floorShare(m)?.median ?? []);
  const single = sizes.map((corpusSize) => {
    const values = shares(platform(corpusSize).filter((m) => m.scenario.id !== 'mixed'));
    return values.length === 0 ? 'n/a' : `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
  });
  const mixed = sizes.map((corpusSize) => {
    const [value] = shares(platform(corpusSize).filter((m) => m.scenario.id === 'mixed'));
    return value === undefined ? 'n/a' : value.toFixed(2);
  });
  const exact = report.counting.every((c) => c.errors === 0 && c.usageSays === c.sent);
  const perSize = (values: string[]) => values.join(' / ');
  return (
    `Latest run (${report.startedAt.slice(0, 10)}, ${report.machine}), at ${perSize(sizes.map(size))} quotes: ` +
    `the server answered ${perSize(single)} of the same-bytes floor's requests/s on single URLs ` +
    `and ${perSize(mixed)} on mixed traffic; peak RSS ${perSize(sizes.map((s) => mb(report.peakRss[s] ?? null)))}; ` +
    `counted calls counted ${exact ? 'exactly' : 'NOT exactly'}.`
  );
}

/** A grouped bar chart (the server's requests/s as a share of its same-bytes floor, per scenario and corpus size) as plain SVG. */
export function svgChart(report: BenchReport): string {
  const rows = report.measurements;
  const barHeight = 9;
  const groupHeight = barHeight * 2 + 12;
  const labelWidth = 470;
  const plotWidth = 480;
  const height = rows.length * groupHeight + 60;
  const colours = { server: '#2563eb', floor: '#9ca3af' } as const;
  const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + plotWidth + 120}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<text x="10" y="18" font-size="13" font-weight="bold">Requests/s against the same-bytes floor, ${report.connections} connections (${escapeXml(report.startedAt)})</text>`,
  ];
  Object.entries(colours).forEach(([name, colour], index) => {
    parts.push(
      `<rect x="${labelWidth + index * 90}" y="28" width="10" height="10" fill="${colour}"/><text x="${labelWidth + index * 90 + 14}" y="37">${name}</text>`,
    );
  });
  rows.forEach((m, index) => {
    const top = 50 + index * groupHeight;
    // Each group is scaled to its own floor: pages and single quotes differ tenfold in bytes.
    const max = Math.max(1, m.server.requestsPerSecond, m.floor.requestsPerSecond);
    parts.push(
      `<text x="10" y="${top + 12}">${escapeXml(`${m.corpusSize.toLocaleString('en-US')} · ${m.keyPlan} · ${m.scenario.title}`)}</text>`,
    );
    (['server', 'floor'] as const).forEach((name, bar) => {
      const value = m[name].requestsPerSecond;
      const width = Math.max(1, (value / max) * plotWidth);
      const y = top + bar * barHeight;
      parts.push(
        `<rect x="${labelWidth}" y="${y}" width="${width.toFixed(1)}" height="${barHeight - 1}" fill="${colours[name]}"/>`,
      );
      const share = floorShare(m)?.median.toFixed(2) ?? 'n/a: floor 0 req/s';
      const label = name === 'server' ? `${rps(value)} (${share})` : rps(value);
      parts.push(`<text x="${labelWidth + width + 4}" y="${y + 8}" font-size="9">${label}</text>`);
    });
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
