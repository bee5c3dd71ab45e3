import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../src/cluster.js';
import type { OperatorApi } from '@quotes/accounts';
import { pacedCalls, served } from '@quotes/server/testing';
import { get } from '@quotes/server/testing';
import { clusterSkipReason, startTestCluster, type TestCluster } from './support/testCluster.js';

/**
 * A key's burst limit across the cluster `npm run cluster` starts (three server processes behind
 * HAProxy, PgBouncer in transaction mode): its rate in all whether HAProxy spreads its calls or
 * a client pins one server's address.
 */
const skipReason = clusterSkipReason('the burst tests through HAProxy');

let running: TestCluster | undefined;
let cluster: Cluster;
let operator: OperatorApi;
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

beforeAll(async () => {
  if (skipReason) return;
  running = await startTestCluster('the burst tests through HAProxy');
  ({ cluster, operator } = running);
}, 120_000);

afterAll(async () => {
  agent.destroy();
  await running?.stop();
}, 60_000);

/** quotes-random at `url` with `key`: the status (0: no answer within 10 s). */
const call = (url: string, key: string) => () =>
  get(`${url}/v1/quotes-random`, { 'X-API-Key': key }, { agent, timeoutMs: 10_000 }).then(
    (answer) => answer.status,
    () => 0,
  );

describe.skipIf(skipReason !== undefined)("a key's burst limit across 3 server processes", () => {
  it('serves a starter key (25/s) sending 100/s through HAProxy at most 1.2 x 25/s over 10 s', async () => {
    const key = await operator.createKey({ client: 'Spread', plan: 'starter' });
    const calls = await pacedCalls(100, 10, call(cluster.url, key.key));
    console.info(`through HAProxy, starter key at 100/s for 10 s: ${served(calls)} served`);
    expect(calls.filter((answer) => answer.status !== 200 && answer.status !== 429)).toEqual([]);
    expect(served(calls)).toBeLessThanOrEqual(1.2 * 25 * 10);
    expect(served(calls)).toBeGreaterThanOrEqual(0.8 * 25 * 10);
  }, 60_000);

  it('serves a starter key sending 20/s to one server’s own address every call', async () => {
    const key = await operator.createKey({ client: 'Pinned', plan: 'starter' });
    const calls = await pacedCalls(20, 10, call(cluster.servers[1]!.url, key.key));
    console.info(`pinned to one of 3 server processes, starter key at 20/s for 10 s: ${served(calls)} of 200 served`);
    expect(calls.filter((answer) => answer.status !== 200 && answer.status !== 429)).toEqual([]);
    expect(served(calls)).toBeGreaterThanOrEqual(0.95 * calls.length);
  }, 60_000);
});
