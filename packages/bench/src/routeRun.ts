import { findDebianTool, type HAProxy, haproxyTool, startHAProxy } from '@quotes/cluster';
import { freePort } from '@quotes/database';
import type { CostMeter } from './callCosts.js';
import type { RunningProcess } from './childProcess.js';
import { type LoadOptions, type LoadResult, runLoad } from './loadRun.js';
import { type RouteMeasurement, routes } from './routeReport.js';
import type { Scenario } from './scenarios.js';

export interface StartedServer {
  process: RunningProcess;
  base: string;
}

export interface RouteRunOptions {
  corpusSize: number;
  scenarios: Scenario[];
  /** Starts a server process on the bench's database, with more environment. */
  startServer: (env: NodeJS.ProcessEnv) => Promise<StartedServer>;
  floorBase: string;
  /** The traffic keys (16); the single-key route sends the first alone. */
  keys: string[];
  meter: CostMeter;
  load: Pick<LoadOptions, 'connections' | 'durationSeconds' | 'warmupSeconds'>;
  log: (line: string) => void;
}

interface RouteTarget {
  route: string;
  base: string;
  keys: string[];
  servers: number[];
  balancer?: number;
}

/** Servers behind HAProxy in the balanced rows: 1, 2 and 3 on this machine's cores. */
const balancedCounts = [1, 2, 3] as const;

/**
 * The quotes-random and quotes-categories traffic over other routes, each beside the same-bytes
 * floor, measured in a rotating order on server processes started together and warmed alike
 * (each route scenario sent to each for `warmupSeconds` x 5 first, so their quote caches and
 * JIT meet the rotation in the same state): 16 keys direct, one key alone (its calls at once are
 * bounded per server process), the usage history off (USAGE_HISTORY=off, otherwise the same),
 * and HAProxy (Debian's, as `npm run cluster` runs it) in front of 1, 2 and 3 of them. Every
 * server trusts 127.0.0.1 as a proxy, as behind the balancer. Without haproxy its rows are
 * skipped and a note says why.
 */
export async function measureRoutes(
  options: RouteRunOptions,
): Promise<{ routes: RouteMeasurement[]; notes: string[] }> {
  const { keys, log } = options;
  const notes: string[] = [];
  const started: StartedServer[] = [];
  const balancers: HAProxy[] = [];
  const results: RouteMeasurement[] = [];
  try {
    const haproxy = findDebianTool(haproxyTool);
    if ('missing' in haproxy) {
      notes.push(`HAProxy rows skipped: ${haproxy.missing}.`);
      log(`  ${notes[notes.length - 1]}`);
    }
    // Behind the balancer as in deploy/: the client's address from its X-Forwarded-For.
    const serverEnv = { TRUST_PROXY: '127.0.0.1' };
    const poolSize = 'missing' in haproxy ? 1 : Math.max(...balancedCounts);
    // Each started one is stopped in the end, even when another failed to start.
    const starts = await Promise.allSettled([
      options.startServer({ ...serverEnv, USAGE_HISTORY: 'off' }),
      ...Array.from({ length: poolSize }, () => options.startServer(serverEnv)),
    ]);
    for (const start of starts) if (start.status === 'fulfilled') started.push(start.value);
    const failed = starts.find((start): start is PromiseRejectedResult => start.status === 'rejected');
    if (failed) throw failed.reason;
    const [historyOff, ...pool] = started;
    if (!historyOff || !pool[0]) throw new Error('the route servers did not start');
    const first = pool[0];
    const targets: RouteTarget[] = [
      { route: routes.direct, base: first.base, keys, servers: [first.process.pid] },
      { route: routes.oneKey, base: first.base, keys: keys.slice(0, 1), servers: [first.process.pid] },
      { route: routes.historyOff, base: historyOff.base, keys, servers: [historyOff.process.pid] },
    ];
    if ('path' in haproxy)
      for (const count of balancedCounts) {
        const behind = pool.slice(0, count);
        const balancer = await startHAProxy({
          program: haproxy.path,
          port: await freePort(),
          statsPort: await freePort(),
          servers: behind.map((one, index) => ({ name: `s${index + 1}`, port: Number(new URL(one.base).port) })),
          logEveryCall: false,
        });
        balancers.push(balancer);
        await balancer.whenAllUp(15_000);
        targets.push({
          route: routes.balanced(count),
          base: balancer.url,
          keys,
          servers: behind.map((one) => one.process.pid),
          balancer: balancer.pid,
        });
      }
    const warmSeconds = options.load.warmupSeconds * 5;
    if (warmSeconds > 0)
      for (const scenario of options.scenarios)
        for (const one of started)
          await runLoad({
            origin: one.base,
            paths: [scenario.path],
            keys,
            connections: options.load.connections,
            durationSeconds: warmSeconds,
            warmupSeconds: 0,
          });
    for (const [index, scenario] of options.scenarios.entries()) {
      // The floor among the targets, the whole order rotated by one per scenario.
      const order: Array<RouteTarget | 'floor'> = [...targets, 'floor'];
      const rotated = [...order.slice(index % order.length), ...order.slice(0, index % order.length)];
      let floor: LoadResult | undefined;
      const measured: Array<Omit<RouteMeasurement, 'floor'>> = [];
      for (const target of rotated) {
        const base = target === 'floor' ? options.floorBase : target.base;
        const run = (durationSeconds: number) =>
          runLoad({
            origin: base,
            paths: [scenario.path],
            keys: target === 'floor' ? undefined : target.keys,
            connections: options.load.connections,
            durationSeconds,
            warmupSeconds: 0,
          });
        if (options.load.warmupSeconds > 0) await run(options.load.warmupSeconds);
        if (target === 'floor') {
          floor = await run(options.load.durationSeconds);
          log(`  ${scenario.id.padEnd(16)} floor ${Math.round(floor.requestsPerSecond)} req/s`);
          continue;
        }
        const { result, costs } = await options.meter.measure(
          { servers: target.servers, balancer: target.balancer },
          () => run(options.load.durationSeconds),
        );
        log(
          `  ${scenario.id.padEnd(16)} ${target.route}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latencyP99Ms} ms, errors ${result.errors}, server ${costs?.serverMicros ?? '-'} µs/call, PostgreSQL ${costs?.databaseMicros ?? '-'} µs/call, ${costs?.transactionsPerCall ?? '-'} transactions/call`,
        );
        measured.push({ corpusSize: options.corpusSize, scenario, route: target.route, server: result, costs });
      }
      if (!floor) throw new Error(`${scenario.id}: the floor was not measured`);
      // Shown in the targets' order, whatever order they ran in.
      for (const target of targets) {
        const row = measured.find((m) => m.route === target.route);
        if (row) results.push({ ...row, floor });
      }
    }
  } finally {
    for (const balancer of balancers) await balancer.stop();
    for (const one of started) await one.process.stop();
  }
  return { routes: results, notes };
}
