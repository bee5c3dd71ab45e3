import { connectDatabase, type DatabaseHandle } from '@quotes/database';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { type PacedCall, pacedCalls } from '../../testing/pacedCalls.js';
import { startTestServer, type TestServer } from '../../testing/testServer.js';

// Three servers on one database, each with its own pool and notification connection: a key's
// burst limit holds across them, each enforcing its share among the servers the key's calls reach.
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

/** `perSecond` calls a second for `seconds` of quotes-random, spread in turn over `among`. */
function offerTimed(key: string, among: TestServer[], perSecond: number, seconds: number): Promise<PacedCall[]> {
  return pacedCalls(perSecond, seconds, (i) =>
    among[i % among.length]!.call('/v1/quotes-random', { key }).then((answer) => answer.status),
  );
}

/**
 * The seconds from `began` to now, at least `seconds`: how long the servers had to serve calls
 * offered for `seconds`. A rate limit holds per second of the servers' time; on a starved machine
 * the calls of a 10 s window were seen answered over 25 s (this process sends and answers them),
 * and 630 served over 25 s is the rate, not three times it.
 */
function spanSeconds(began: number, seconds: number): number {
  return Math.max(seconds, (performance.now() - began) / 1000);
}

/** As offerTimed, the statuses only. */
async function offer(key: string, among: TestServer[], perSecond: number, seconds: number): Promise<number[]> {
  return (await offerTimed(key, among, perSecond, seconds)).map((call) => call.status);
}

/** Two presence intervals: how long a server that stopped seeing a key is still counted for it. */
const windowMs = 4000;

describe("a key's burst limit across servers, its calls spread", () => {
  it('serves a starter key (25/s) sending 100/s over 3 servers at most 1.2 x 25/s over 10 s', async () => {
    await untilLive(3, servers, 5000);
    const issued = await servers[0]!.createKey({ plan: 'starter' });
    const began = performance.now();
    const statuses = await offer(issued.key, servers, 100, 10);
    const took = spanSeconds(began, 10);
    const served = statuses.filter((status) => status === 200).length;
    console.info(
      `starter key at 100/s over 3 servers for 10 s: ${served} served (${served / 10}/s), answered within ${took.toFixed(1)} s`,
    );
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(served).toBeLessThanOrEqual(1.2 * 25 * took);
    // Not starved either: its rate in all, within the same tolerance.
    expect(served).toBeGreaterThanOrEqual(0.8 * 25 * 10);
    await Promise.all(servers.map((server) => server.flushCounts()));
    expect((await servers[0]!.operator.usage(issued.id)).calls).toBe(served);
  }, 30_000);
});

// Keys of their own on the same three servers, light loads (20/s, 40/s, 20/s): their windows run at
// once. Not beside the 100/s above or the uneven key below: a key that must be served 95% (or 90%)
// from its first second was served 189 of 200 (and 204 of 240) beside them on a shared machine.
describe.concurrent("a key's burst limit across servers, keys side by side", () => {
  it('serves a starter key (25/s) sending 20/s to one of 3 servers every call', async () => {
    await untilLive(3, servers, 5000);
    const issued = await servers[0]!.createKey({ plan: 'starter' });
    const statuses = await offer(issued.key, [servers[1]!], 20, 10);
    const served = statuses.filter((status) => status === 200).length;
    console.info(`starter key at 20/s to one of 3 servers for 10 s: ${served} of ${statuses.length} served`);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(served).toBeGreaterThanOrEqual(0.95 * statuses.length);
    // Its rate, not three times it: 40/s pinned to one server is held to a second's burst plus 25/s.
    const flood = await servers[0]!.createKey({ plan: 'starter' });
    const floodBegan = performance.now();
    const flooded = (await offer(flood.key, [servers[2]!], 40, 5)).filter((status) => status === 200).length;
    const floodTook = spanSeconds(floodBegan, 5);
    console.info(`starter key at 40/s to one of 3 servers for 5 s: ${flooded} served within ${floodTook.toFixed(1)} s`);
    expect(flooded).toBeLessThanOrEqual(25 + 25 * floodTook);
    expect(flooded).toBeGreaterThanOrEqual(0.8 * 25 * 5);
  }, 30_000);

  it('serves a key that moves to another server its whole rate again within one window', async () => {
    await untilLive(3, servers, 5000);
    const issued = await servers[0]!.createKey({ plan: 'starter' });
    const before = await offer(issued.key, [servers[0]!], 20, 3);
    expect(before.filter((status) => status === 200).length).toBeGreaterThanOrEqual(0.95 * before.length);
    const after = await offerTimed(issued.key, [servers[1]!], 20, 8);
    const during = after.filter((call) => call.at < windowMs);
    const past = after.filter((call) => call.at >= windowMs);
    const servedDuring = during.filter((call) => call.status === 200).length;
    const servedPast = past.filter((call) => call.status === 200).length;
    console.info(
      `key moved at 20/s: ${servedDuring} of ${during.length} served in the window after the move, ${servedPast} of ${past.length} after it`,
    );
    expect(after.filter((call) => call.status !== 200 && call.status !== 429)).toEqual([]);
    // Within the window: at least half the rate (the old server still counted), never more than 20/s offered.
    expect(servedDuring).toBeGreaterThanOrEqual(0.8 * 12.5 * (windowMs / 1000));
    expect(servedPast).toBeGreaterThanOrEqual(0.95 * past.length);
  }, 30_000);
});

describe("a key's burst limit across servers, a key's uneven calls", () => {
  it('serves a key offered 20/s on one server and 4/s on another every call, and holds it near its rate when the second rises', async () => {
    await untilLive(3, servers, 5000);
    const issued = await servers[0]!.createKey({ plan: 'starter' });
    const [heavy, light] = await Promise.all([
      offerTimed(issued.key, [servers[0]!], 20, 10),
      offerTimed(issued.key, [servers[1]!], 4, 10),
    ]);
    const uneven = [...heavy!, ...light!];
    const served = uneven.filter((call) => call.status === 200).length;
    console.info(`starter key at 20/s + 4/s on two of 3 servers for 10 s: ${served} of ${uneven.length} served`);
    expect(uneven.filter((call) => call.status !== 200 && call.status !== 429)).toEqual([]);
    // A key's first 250 ms on a server are capped at rate / 3 and reports take a round trip, so a
    // loaded machine loses part of the first second: 221 of 240 under CI's load, 233-239 quiet.
    // Shares of rate / 3 alone would serve about 123.
    expect(served).toBeGreaterThanOrEqual(0.9 * uneven.length);
    // The light server's calls rise to 20/s: 40/s offered, its rate served within the tolerance.
    const risenBegan = performance.now();
    const [first, second] = await Promise.all([
      offerTimed(issued.key, [servers[0]!], 20, 6),
      offerTimed(issued.key, [servers[1]!], 20, 6),
    ]);
    const risenTook = spanSeconds(risenBegan, 6);
    const risen = [...first!, ...second!].filter((call) => call.status === 200).length;
    console.info(
      `then 20/s + 20/s for 6 s: ${risen} served (${(risen / 6).toFixed(1)}/s), answered within ${risenTook.toFixed(1)} s`,
    );
    expect(risen).toBeLessThanOrEqual(1.2 * 25 * risenTook);
    expect(risen).toBeGreaterThanOrEqual(0.8 * 25 * 6);
  }, 30_000);
});

describe("a key's burst limit across servers, as servers stop and start", () => {
  it('gives the remaining servers the stopped one’s share as soon as it says goodbye', async () => {
    const stopped = servers.pop()!;
    await stopped.close();
    const tookMs = await untilLive(2, servers, 1000);
    const issued = await servers[0]!.createKey({ plan: 'starter' });
    const began = performance.now();
    const statuses = await offer(issued.key, servers, 100, 4);
    const took = spanSeconds(began, 4);
    const served = statuses.filter((status) => status === 200).length;
    console.info(
      `after a stop (noticed in ${tookMs} ms): starter key at 100/s over 2 servers for 4 s: ${served} served within ${took.toFixed(1)} s`,
    );
    // What one server allows a key in 4 s: a second's burst, then 25 a second.
    expect(served).toBeLessThanOrEqual(25 + 25 * took);
    expect(served).toBeGreaterThanOrEqual(0.8 * 25 * 4);
  }, 30_000);

  it('counts a new server in within a round trip of its start', async () => {
    const pool = connectDatabase(database.url, { poolSize: 5 });
    pools.push(pool);
    servers.push(await startTestServer(pool));
    expect(await untilLive(3, servers, 1000)).toBeLessThan(1000);
  }, 30_000);
});
