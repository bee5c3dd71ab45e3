import { connectDatabase, type DatabaseHandle } from '@quotes/database';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtureCorpus } from '../support/fixtureCorpus.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

// Three servers on one database, each with its own pool and notification connection: a key's
// burst limit holds across them, each enforcing its share of the live servers.
let database: TestDatabase;
const pools: DatabaseHandle[] = [];
const servers: TestServer[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
  for (let i = 0; i < 3; i++) {
    const pool = connectDatabase(database.url, { poolSize: 5 });
    pools.push(pool);
    servers.push(await startTestServer(pool));
  }
}, 60_000);
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const pool of pools) await pool.close();
  await database?.drop();
});

async function untilLive(count: number, among: TestServer[], withinMs: number): Promise<number> {
  const started = Date.now();
  while (!among.every((server) => server.liveServers() === count)) {
    if (Date.now() - started > withinMs)
      throw new Error(`live servers ${among.map((server) => server.liveServers()).join(', ')}, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

/** `perSecond` calls a second for `seconds`, spread in turn over `among`; the statuses answered. */
async function offer(key: string, among: TestServer[], perSecond: number, seconds: number): Promise<number[]> {
  const started = performance.now();
  const calls: Promise<number>[] = [];
  for (let i = 0; i < perSecond * seconds; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    calls.push(among[i % among.length]!.call('/v1/quotes-random', { key }).then((answer) => answer.status));
  }
  return Promise.all(calls);
}

describe("a key's burst limit across servers", () => {
  it('serves a starter key (25/s) sending 100/s over 3 servers at most 1.2 x 25/s over 10 s', async () => {
    await untilLive(3, servers, 5000);
    const issued = await servers[0]!.createKey({ plan: 'starter' });
    const statuses = await offer(issued.key, servers, 100, 10);
    const served = statuses.filter((status) => status === 200).length;
    console.info(`starter key at 100/s over 3 servers for 10 s: ${served} served (${served / 10}/s)`);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(served).toBeLessThanOrEqual(1.2 * 25 * 10);
    // Not starved either: its rate in all, within the same tolerance.
    expect(served).toBeGreaterThanOrEqual(0.8 * 25 * 10);
    await Promise.all(servers.map((server) => server.flushCounts()));
    expect((await servers[0]!.operator.usage(issued.id)).calls).toBe(served);
  }, 30_000);

  it('gives the remaining servers the stopped one’s share as soon as it says goodbye', async () => {
    const stopped = servers.pop()!;
    await stopped.close();
    const tookMs = await untilLive(2, servers, 1000);
    const issued = await servers[0]!.createKey({ plan: 'starter' });
    const statuses = await offer(issued.key, servers, 100, 4);
    const served = statuses.filter((status) => status === 200).length;
    console.info(
      `after a stop (noticed in ${tookMs} ms): starter key at 100/s over 2 servers for 4 s: ${served} served`,
    );
    // What one server allows a key in 4 s: a second's burst, then 25 a second.
    expect(served).toBeLessThanOrEqual(25 + 25 * 4);
    expect(served).toBeGreaterThanOrEqual(0.8 * 25 * 4);
  }, 30_000);

  it('counts a new server in within a round trip of its start', async () => {
    const pool = connectDatabase(database.url, { poolSize: 5 });
    pools.push(pool);
    servers.push(await startTestServer(pool));
    expect(await untilLive(3, servers, 1000)).toBeLessThan(1000);
  }, 30_000);
});
