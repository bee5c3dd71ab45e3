import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@quotes/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../../src/cluster/cluster.js';
import { haproxyTool, pgBouncerTool } from '../../src/cluster/debianTool.js';
import { Teardown } from '../../src/cluster/teardown.js';
import { parseConfig } from '../../src/config.js';
import { createOperatorApi, type OperatorApi } from '../../src/operator/operatorApi.js';
import { debianToolForTests } from '../support/debianTool.js';
import { pacedCalls, served } from '../support/pacedCalls.js';
import { get } from '../support/serviceProcess.js';

/**
 * A key's burst limit across the cluster `npm run cluster` starts (three server processes behind
 * HAProxy, PgBouncer in transaction mode): its rate in all whether HAProxy spreads its calls or
 * a client pins one server's address.
 */
const haproxy = debianToolForTests(haproxyTool, 'the burst tests through HAProxy');
const pgbouncer = debianToolForTests(pgBouncerTool, 'the burst tests through HAProxy');
const skipReason =
  'skipReason' in haproxy ? haproxy.skipReason : 'skipReason' in pgbouncer ? pgbouncer.skipReason : undefined;

let dir: string;
let cluster: Cluster;
let operator: OperatorApi;
let teardown: Teardown;
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

beforeAll(async () => {
  if (skipReason) return;
  dir = await mkdtemp(join(tmpdir(), 'quotes-burst-'));
  teardown = new Teardown((what, error) => console.error(`stopping ${what}: ${String(error)}`));
  const ports = await Promise.all(Array.from({ length: 9 }, () => freePort()));
  cluster = await startCluster({
    port: ports[0]!,
    statsPort: ports[1]!,
    pgBouncerPort: ports[2]!,
    servers: [0, 1, 2].map((index) => ({ port: ports[3 + index]!, metricsPort: ports[6 + index]! })),
    config: parseConfig({ DATA_DIR: dir, EMBEDDED_PG_PORT: String(await freePort()), CORPUS_SIZE: '2000' }),
    programs: { haproxy: (haproxy as { path: string }).path, pgbouncer: (pgbouncer as { path: string }).path },
    logDir: dir,
    serverEnv: { LOG_LEVEL: 'warn', CORPUS_SIZE: '2000' },
    progress: () => undefined,
    teardown,
  });
  operator = createOperatorApi(cluster.database);
}, 120_000);

afterAll(async () => {
  agent.destroy();
  await teardown?.run();
  if (dir) await rm(dir, { recursive: true, force: true });
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
