import type { CallCosts } from './callCosts.js';
import { micros, ms, ratio, roundSpread, rps } from './figureText.js';
import type { HistoryMemoryResult } from './historyMemory.js';
import type { LoadResult } from './loadRun.js';
import { floorShare, type RoundedMeasurement, roundCosts } from './roundSummary.js';
import type { Scenario } from './scenarios.js';

/** How the calls of a route measurement reached the server, in the order they are measured and shown. */
export const routes = {
  direct: 'direct, 16 keys',
  oneKey: 'direct, 1 key (KEY_CALLS_AT_ONCE: 8 at once)',
  historyOff: 'direct, 16 keys, history off',
  balanced: (servers: number) => `HAProxy, ${servers} server${servers > 1 ? 's' : ''}`,
} as const;

/** One scenario's traffic over one route, beside the same-bytes floor measured in the same rounds. */
export interface RouteMeasurement extends RoundedMeasurement {
  corpusSize: number;
  scenario: Scenario;
  route: string;
  /** Costs of a report from before rounds (its one run); with rounds they are in each round. */
  costs?: CallCosts | null;
}

/** The route's costs per call: the median over its rounds, or its one run's. */
function routeCosts(m: RouteMeasurement): CallCosts | null {
  return m.rounds ? roundCosts(m).server : (m.costs ?? null);
}

/** A capped key's counted calls with what they cost (the lease rounds' share of the database). */
export interface CountedCosts {
  corpusSize: number;
  server: LoadResult;
  costs: CallCosts | null;
}

export interface RouteSection {
  routes: RouteMeasurement[];
  /** Why rows are missing (no haproxy on this machine). */
  routeNotes: string[];
  countedCosts: CountedCosts[];
  historyMemory?: HistoryMemoryResult;
}

/** Connections one server process opens: DATABASE_POOL_SIZE's default and the LISTEN connection. */
const connectionsPerServer = 21;
const scales = [1, 10, 100] as const;

const fixed = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '-' : value.toFixed(digits);

/** The server's share of the floor, the median of the rounds (see floorShare). */
const shareText = (m: RoundedMeasurement) => floorShare(m)?.median.toFixed(2) ?? 'n/a: floor 0 req/s';

function routeRow(m: RouteMeasurement): string {
  const c = routeCosts(m);
  const floorCosts = m.rounds ? roundCosts(m).floor : null;
  return `| ${m.corpusSize.toLocaleString('en-US')} | ${m.scenario.title} | ${m.route} | ${rps(m.server.requestsPerSecond)} | ${ms(m.server.latencyP99Ms)} | ${m.server.errors} | ${shareText(m)} | ${roundSpread(floorShare(m))} | ${rps(m.floor.requestsPerSecond)} | ${micros(c?.serverMicros)} | ${micros(c?.databaseMicros)} | ${micros(c?.balancerMicros)} | ${micros(floorCosts?.serverMicros)} | ${fixed(c?.transactionsPerCall, 4)} |`;
}

/**
 * The history's bytes per key, measured and as the recorder estimates them. A figure of 0 or less
 * is no measurement (the heap shrank by more than the history held), and says so.
 */
function historyMemoryLine(memory: HistoryMemoryResult): string {
  const figure = (bytes: number, unit: 'bytes' | 'KB', estimated: number | undefined) => {
    if (bytes <= 0) return 'no figure (the heap shrank while measuring)';
    const text = (value: number) => (unit === 'KB' ? `${rps(value / 1024)} KB` : `${rps(value)} bytes`);
    return estimated === undefined ? text(bytes) : `${text(bytes)} (the recorder estimates ${text(estimated)})`;
  };
  const how = memory.rounds === undefined ? '' : `, the median of ${memory.rounds} in a fresh process`;
  return `Usage history in memory between flushes (src/historyMemory.ts${how}): ${figure(memory.ordinaryBytesPerKey, 'bytes', memory.ordinaryEstimatedBytesPerKey)} per ordinary active key (${rps(memory.ordinaryKeys)} keys), ${figure(memory.boundBytesPerKey, 'KB', memory.boundEstimatedBytesPerKey)} per key at its bounds (${memory.boundKeys} keys).`;
}

interface Modelled {
  label: string;
  callsPerSecond: number;
  costs: CallCosts;
}

/**
 * Where this run's per-call costs lead at 10 and 100 times its calls per second: cores of server
 * processes and of PostgreSQL, the database's transactions, rows and WAL, and the connections of
 * one server process a core. Linear on purpose: every per-server cost (a lease flush every 200 ms,
 * the pool) grows with the processes, which grow with the calls.
 */
function modelRows(item: Modelled): string[] {
  return scales.map((scale) => {
    const calls = item.callsPerSecond * scale;
    const serverCores = (calls * item.costs.serverMicros) / 1e6;
    const databaseCores = item.costs.databaseMicros === null ? null : (calls * item.costs.databaseMicros) / 1e6;
    const processes = Math.max(1, Math.ceil(serverCores));
    return `| ${item.label} | ${scale === 1 ? 'this run' : `${scale}x`} | ${rps(calls)} | ${fixed(serverCores)} | ${fixed(databaseCores)} | ${rps(calls * item.costs.transactionsPerCall)} | ${rps(calls * item.costs.rowsWrittenPerCall)} | ${fixed((calls * item.costs.walBytesPerCall) / 1e6, 2)} | ${rps(processes * connectionsPerServer)} |`;
  });
}

/** The route, history and scaling tables of a report (none for a report without them). */
export function routeTables(section: Partial<RouteSection>): string[] {
  const lines: string[] = [];
  const measured = section.routes ?? [];
  if (measured.length > 0)
    lines.push(
      '',
      '| corpus | scenario | route | server req/s | p99 ms | errors | vs same-bytes floor | rounds: lowest-highest | floor req/s | server µs/call | PostgreSQL µs/call | HAProxy µs/call | floor µs/call | transactions/call |',
      '|---:|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|',
      ...measured.map(routeRow),
    );
  for (const note of section.routeNotes ?? []) lines.push('', note);
  const pairs = measured.flatMap((off) => {
    if (off.route !== routes.historyOff) return [];
    const on = measured.find(
      (m) => m.route === routes.direct && m.corpusSize === off.corpusSize && m.scenario.id === off.scenario.id,
    );
    return on ? [{ on, off }] : [];
  });
  if (pairs.length > 0)
    lines.push(
      '',
      '| corpus | scenario | history on vs floor | history off vs floor | on / off req/s |',
      '|---:|---|---:|---:|---:|',
      ...pairs.map(({ on, off }) => {
        return `| ${on.corpusSize.toLocaleString('en-US')} | ${on.scenario.title} | ${shareText(on)} | ${shareText(off)} | ${ratio(on.server.requestsPerSecond, off.server.requestsPerSecond, 'n/a: history off 0 req/s')} |`;
      }),
    );
  if (section.historyMemory) lines.push('', historyMemoryLine(section.historyMemory));
  // The model starts from the first corpus size: per-call costs, not the corpus, decide it.
  const corpusSize = Math.min(...measured.map((m) => m.corpusSize));
  const modelled: Modelled[] = [
    ...measured
      .filter((m) => m.corpusSize === corpusSize && m.route === routes.direct)
      .flatMap((m) => {
        const costs = routeCosts(m);
        return costs ? [{ label: m.scenario.title, callsPerSecond: m.server.requestsPerSecond, costs }] : [];
      }),
    ...(section.countedCosts ?? [])
      .filter((c) => c.corpusSize === corpusSize && c.costs)
      .map((c) => ({
        label: 'a capped key, counted',
        callsPerSecond: c.server.requestsPerSecond,
        costs: c.costs as CallCosts,
      })),
  ];
  if (modelled.length > 0)
    lines.push(
      '',
      `| at ${corpusSize.toLocaleString('en-US')} quotes | traffic | calls/s | server cores | PostgreSQL cores | transactions/s | rows written/s | WAL MB/s | connections, 1 server a core |`,
      '|---|---|---:|---:|---:|---:|---:|---:|---:|',
      ...modelled.flatMap(modelRows),
    );
  return lines;
}
