import { readdirSync } from 'node:fs';
import { Agent } from 'node:http';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../src/cluster.js';
import type { OperatorApi } from '@quotes/accounts';
import { get } from '@quotes/server/testing';
import { clusterSkipReason, startTestCluster, type TestCluster } from './support/testCluster.js';

/**
 * Faults across servers, through the cluster `npm run cluster` starts (HAProxy with the
 * deployment's configuration, PgBouncer in transaction mode, three server processes): a server
 * killed, a rolling restart, PgBouncer restarted, each under a steady load from a few clients.
 * KEEP_CLUSTER_LOGS=1 keeps the processes' logs (server-s1.log, haproxy.log) for a failure's cause.
 */
const skipReason = clusterSkipReason('the cluster fault tests');

const clients = 6;
/** COUNT_FLUSH_MS of the cluster's servers: the default. */
const countFlushMs = 200;
/** After a SIGKILL, the calls the killed server journaled are counted within this long. */
const usageWithinMs = 15_000;

let running: TestCluster | undefined;
let cluster: Cluster;
let operator: OperatorApi;

beforeAll(async () => {
  if (skipReason) return;
  running = await startTestCluster('the cluster fault tests');
  ({ cluster, operator } = running);
}, 120_000);

afterAll(() => running?.stop(), 60_000);

interface Tally {
  /** Calls answered 200. */
  ok: number;
  /** Every other answer, by status; 0 for a call that got no answer at all. */
  failed: Map<number, number>;
  /** 503s that carried Retry-After. */
  retryAfter: number;
  /** When the last non-200 answer came, in ms since the load started. */
  lastFailureAt: number;
}

/** `clients` loops calling quotes-random through HAProxy with `key` until `during` settles. */
async function underLoad(key: string, during: () => Promise<void>): Promise<Tally> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const tally: Tally = { ok: 0, failed: new Map(), retryAfter: 0, lastFailureAt: 0 };
  const started = performance.now();
  let running = true;
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const answer = await get(
        `${cluster.url}/v1/quotes-random`,
        { 'X-API-Key': key },
        { agent, timeoutMs: 10_000 },
      ).catch(() => undefined);
      if (answer?.status === 200) {
        tally.ok++;
        continue;
      }
      const status = answer?.status ?? 0;
      tally.failed.set(status, (tally.failed.get(status) ?? 0) + 1);
      if (status === 503 && answer?.headers['retry-after']) tally.retryAfter++;
      tally.lastFailureAt = performance.now() - started;
    }
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await during();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  } finally {
    running = false;
    await Promise.all(loops);
    agent.destroy();
  }
  return tally;
}

/** The calls quotes-usage reports for `key`, asked through HAProxy as a client would. */
async function usage(key: string): Promise<number> {
  const answer = await get(`${cluster.url}/v1/quotes-usage`, { 'X-API-Key': key }, { timeoutMs: 5000 });
  if (answer.status !== 200) throw new Error(`quotes-usage answered ${answer.status}: ${answer.body}`);
  return (JSON.parse(answer.body) as { calls_this_month: number }).calls_this_month;
}

/** The journal folders of server process `pid` (one while it runs; none once another server counted it). */
function journalsOf(pid: number): string[] {
  const root = join(running!.dataDir, 'count-journal');
  return readdirSync(root).flatMap((database) =>
    readdirSync(join(root, database)).filter((name) => name.startsWith(`${hostname()}-${pid}-`)),
  );
}

/** Polls `done` every 100 ms until it is true; throws at `deadline` (performance.now ms). */
async function until(done: () => boolean, deadline: number): Promise<void> {
  while (!done()) {
    if (performance.now() > deadline) throw new Error('not within the deadline');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function enterpriseKey(client: string) {
  return operator.createKey({ client, plan: 'enterprise', monthlyCalls: 10_000_000 });
}

describe.skipIf(skipReason !== undefined)('three servers behind HAProxy and PgBouncer, under load', () => {
  it("serves Prometheus text on each server's metrics port and on HAProxy's", async () => {
    for (const url of [...cluster.servers.map((server) => server.metricsUrl), cluster.haproxy.metricsUrl]) {
      const answer = await fetch(url);
      expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await answer.text()).toMatch(/^# HELP /m);
    }
  });

  it('starts a server killed (SIGKILL) under load again by itself: no call fails, HAProxy takes it back, its journaled calls are counted within 15 s', async () => {
    const key = await enterpriseKey('Killed server');
    const killedPid = cluster.servers[1]!.child.process.pid!;
    expect(journalsOf(killedPid)).toHaveLength(1);
    const said = running!.progress.length;
    let killedAt = 0;
    // The load goes on for a second after the kill (HAProxy resends what the dead server dropped
    // and takes it out), then stops. Nothing here starts a server: the cluster does.
    const tally = await underLoad(key.key, async () => {
      process.kill(killedPid, 'SIGKILL');
      killedAt = performance.now();
    });
    // Its journal is added to monthly_usage and removed, by its successor at start or by a
    // survivor's sweep, whichever comes first.
    await until(() => journalsOf(killedPid).length === 0, killedAt + usageWithinMs);
    const recoveredMs = performance.now() - killedAt;
    // The survivors' last calls are written within a flush interval of the load's end.
    let counted = await usage(key.key);
    for (const started = performance.now(); counted < tally.ok && performance.now() - started < 2 * countFlushMs; )
      counted = await usage(key.key);
    await until(
      () => running!.progress.slice(said).some((line) => line.startsWith('HAProxy has server s2 UP')),
      killedAt + 30_000,
    );
    const lines = running!.progress.slice(said);
    console.info(
      `SIGKILL of one of 3: ${tally.ok} calls answered 200, failed ${JSON.stringify([...tally.failed])}; its journal ` +
        `counted ${Math.round(recoveredMs)} ms after the kill, quotes-usage then ${counted} (${counted - tally.ok} above); the cluster said: ${lines.join(' / ')}`,
    );
    expect([...tally.failed]).toEqual([]);
    // Never a call answered and not counted (an answer leaves once its call is journaled); above
    // only by calls journaled and killed before their answer left (one per client at most).
    expect(counted).toBeGreaterThanOrEqual(tally.ok);
    expect(counted - tally.ok).toBeLessThanOrEqual(clients);
    // Started again by the cluster, on the same ports, and said so.
    expect(lines[0]).toBe('server s2 exited (SIGKILL) without being asked; starting it again in 1.0 s');
    expect(lines[1]).toMatch(/^server s2 started again \(pid \d+\), ready [\d.]+ s after it exited$/);
    expect(lines[2]).toMatch(/^HAProxy has server s2 UP again, [\d.]+ s after it exited$/);
    expect(cluster.servers[1]!.child.process.pid).not.toBe(killedPid);
    expect(cluster.restarts).toEqual([0, 1, 0]);
  }, 90_000);

  it('fails no call and keeps the count exact through a rolling restart (SIGTERM, one at a time)', async () => {
    const key = await enterpriseKey('Rolling restart');
    const tally = await underLoad(key.key, async () => {
      for (const index of [0, 1, 2]) await cluster.restartServer(index);
    });
    console.info(`rolling restart of 3: ${tally.ok} calls answered 200, failed ${JSON.stringify([...tally.failed])}`);
    expect([...tally.failed]).toEqual([]);
    // Each stopped server wrote its counts as it stopped; the last three within a flush interval.
    await new Promise((resolve) => setTimeout(resolve, 2 * countFlushMs));
    expect((await operator.usage(key.id)).calls).toBe(tally.ok);
  }, 90_000);

  it('answers 503 with Retry-After while PgBouncer restarts, for a bounded time, and recovers by itself', async () => {
    const key = await enterpriseKey('Pooler restarted');
    let restartedAt = 0;
    let loadStart = 0;
    const tally = await underLoad(key.key, async () => {
      loadStart = performance.now() - 1000;
      await cluster.bouncer.restart();
      restartedAt = performance.now() - loadStart;
      // The servers find the pooler again on their own; the load goes on meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 3000));
    });
    const unavailable = tally.failed.get(503) ?? 0;
    console.info(
      `PgBouncer restarted: ${tally.ok} calls answered 200, ${unavailable} answered 503 (${tally.retryAfter} with Retry-After), ` +
        `others ${JSON.stringify([...tally.failed].filter(([status]) => status !== 503))}, last failure ${Math.round(tally.lastFailureAt - restartedAt)} ms after the restart`,
    );
    expect([...tally.failed.keys()].filter((status) => status !== 503)).toEqual([]);
    expect(tally.retryAfter).toBe(unavailable);
    // Recovered well before the load ended (3 s after the restart, then 1 s more).
    expect(tally.lastFailureAt).toBeLessThan(restartedAt + 2500);
    expect(tally.ok).toBeGreaterThan(0);
    // The counts kept while the pooler was away are written once it is back.
    await new Promise((resolve) => setTimeout(resolve, 2 * countFlushMs));
    expect((await operator.usage(key.id)).calls).toBe(tally.ok);
  }, 60_000);
});
