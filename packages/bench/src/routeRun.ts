import { findDebianTool, type HAProxy, haproxyTool, startHAProxy } from '@quotes/cluster';
import { freePort } from '@quotes/database';
import type { CostMeter } from './callCosts.js';
import type { RunningProcess } from './childProcess.js';
import { type LoadOptions, type MeasuredWindow, runLoad } from './loadRun.js';
import { type RouteMeasurement, routes } from './routeReport.js';
import { type RoundTarget, runInterleaved } from './roundRun.js';
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
  floor: { base: string; pid: number };
  /** The traffic keys (16); the single-key route sends the first alone, the floor all of them. */
  keys: string[];
  rounds: number;
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
 * floor, measured in rounds (the floor, every route in an order rotated each round, the floor
 * again: roundRun.ts) on server processes started together and warmed alike (each route scenario
 * sent to each for `warmupSeconds` x 5 first, so their quote caches and JIT meet the rounds in
 * the same state): 16 keys direct, one key alone (its calls at once are
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
    for (const scenario of options.scenarios) {
      const run = (base: string, sentKeys: string[]) => (window: MeasuredWindow) =>
        runLoad({ origin: base, paths: [scenario.path], keys: sentKeys, ...options.load }, window);
      const measured = await runInterleaved({
        floor: {
          name: 'floor',
          pids: { servers: [options.floor.pid] },
          run: run(options.floor.base, keys),
        },
        targets: targets.map(
          (target): RoundTarget => ({
            name: target.route,
            pids: { servers: target.servers, balancer: target.balancer },
            run: run(target.base, target.keys),
          }),
        ),
        rounds: options.rounds,
        meter: options.meter,
        label: scenario.id,
        log,
      });
      // Shown in the targets' order, whatever order they ran in.
      for (const [index, target] of targets.entries()) {
        const measurement = measured[index];
        if (measurement)
          results.push({ corpusSize: options.corpusSize, scenario, route: target.route, ...measurement });
      }
    }
  } finally {
    for (const balancer of balancers) await balancer.stop();
    for (const one of started) await one.process.stop();
  }
  return { routes: results, notes };
}
