import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taxonomy } from '@quotes/contract';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { createOperatorApi } from '@quotes/accounts';
import { type RunningServer, startServer } from '../../src/startServer.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { callServer } from '../../testing/testServer.js';
import { scrape } from '../support/metricsScrape.js';
import { testConfig } from '../../testing/testConfig.js';

let database: TestDatabase;
const servers: RunningServer[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await database?.drop();
});

/**
 * A server whose bound on calls on new combinations at once is `atOnce` (the default follows the
 * machine's cores: each test names the bound its calls stay under or go past), and `more`.
 */
async function serverWithColdBound(atOnce: number, more: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer({
    config: testConfig({ COLD_WORK_AT_ONCE: String(atOnce), ...more }),
    database,
    metricsPort: 0,
    shutdownGraceMs: 2000,
  });
  servers.push(server);
  return server;
}

async function metric(server: RunningServer, name: string): Promise<number> {
  return Number((await scrape(server.metricsUrl ?? '')).samples.get(name));
}

/** Two-filter combinations no call has asked a fresh server for (mood and era, then category and mood), pages and random picks. */
function newCombinations(from: number, count: number): string[] {
  const pairs = [
    ...taxonomy.moods.flatMap((mood) =>
      taxonomy.eras.map((era) => `mood=${encodeURIComponent(mood)}&era=${encodeURIComponent(era)}`),
    ),
    ...taxonomy.categories.flatMap((category) =>
      taxonomy.moods.map((mood) => `category=${encodeURIComponent(category)}&mood=${encodeURIComponent(mood)}`),
    ),
  ];
  expect(from + count).toBeLessThanOrEqual(pairs.length);
  return pairs
    .slice(from, from + count)
    .map((query, index) => (index % 2 === 0 ? `/v1/quotes-filter?${query}&limit=20` : `/v1/quotes-random?${query}`));
}

// Answers unchecked: checking each against the contract takes time under load, and the calls
// must arrive together.
const send = (server: RunningServer, key: string, paths: string[]) =>
  Promise.all(paths.map((path) => callServer(server.url, path, { key, unchecked: true })));

const answered = (statuses: number[]) => statuses.every((status) => status === 200 || status === 404);

async function enterpriseKeys(count: number): Promise<string[]> {
  const operator = createOperatorApi(database);
  const keys: string[] = [];
  for (let key = 0; key < count; key++)
    keys.push((await operator.createKey({ client: `Cold ${key}`, plan: 'enterprise', unlimited: true })).key);
  return keys;
}

describe("keys' new filter combinations: free below the bound, in turn across keys at it", () => {
  it('runs many keys’ new combinations at once, several a key, while fewer than the bound run: none waits', async () => {
    const server = await serverWithColdBound(16);
    const keys = await enterpriseKeys(4);
    // Each key has called within the second, so each is served beside the others.
    await Promise.all(keys.map((key) => send(server, key, ['/v1/quotes-random'])));
    const answers = await Promise.all(keys.map((key, index) => send(server, key, newCombinations(index * 3, 3))));
    expect(answered(answers.flat().map((answer) => answer.status))).toBe(true);
    expect(await metric(server, 'quotes_cold_work_waits_total')).toBe(0);
    expect(await metric(server, 'quotes_cold_work_refusals_total')).toBe(0);
  });

  it('at the bound, holds a flooding key to its turns, serves a bystander’s new combination within one round, and lets a key served alone run', async () => {
    // 64 calls of a key at once (8 by default), so the flood's line of new combinations can be deeper than that.
    const server = await serverWithColdBound(1, { KEY_CALLS_AT_ONCE: '64' });
    const [flood = '', bystander = ''] = await enterpriseKeys(2);

    // Alone: eight new combinations at once run together, none waits.
    expect(answered((await send(server, flood, newCombinations(0, 8))).map((answer) => answer.status))).toBe(true);
    expect(await metric(server, 'quotes_cold_work_waits_total')).toBe(0);

    // Beside another key's calls, the flood's next forty take the one place in turn. The
    // bystander's new combination, sent just behind them, gets the place after at most two more
    // of them (the one running and the flood's round), where a first-come queue would answer the
    // flood's whole line first. Forty-one connections are opened first (by cheap calls of both
    // keys), so all of these calls arrive together, in the order sent.
    await Promise.all([
      ...Array.from({ length: 40 }, () => callServer(server.url, '/v1/quotes-random', { key: flood, unchecked: true })),
      callServer(server.url, '/v1/quotes-random', { key: bystander, unchecked: true }),
    ]);
    const finished: string[] = [];
    const noted = (who: string) => (answer: Awaited<ReturnType<typeof callServer>>) => {
      finished.push(who);
      return answer;
    };
    const floodCalls = newCombinations(8, 40).map((path) =>
      callServer(server.url, path, { key: flood, unchecked: true }).then(noted('flood')),
    );
    const bystanderCall = callServer(server.url, newCombinations(48, 1)[0] ?? '', {
      key: bystander,
      unchecked: true,
    }).then(noted('bystander'));
    const answers = await Promise.all([...floodCalls, bystanderCall]);
    expect(answered(answers.map((answer) => answer.status))).toBe(true);
    const served = finished.indexOf('bystander');
    expect(served).toBeLessThanOrEqual(6);
    expect(finished.length - served - 1).toBeGreaterThanOrEqual(34);
    // All but the first of the 41 waited: they arrived while it ran.
    expect(await metric(server, 'quotes_cold_work_waits_total')).toBe(40);
    expect(await metric(server, 'quotes_cold_work_refusals_total')).toBe(0);

    // Combinations the server keeps (asked twice: the second ask keeps them) are no one's cold
    // work: asked again beside another key's call, nothing more waits.
    await send(server, flood, newCombinations(8, 8));
    const waited = await metric(server, 'quotes_cold_work_waits_total');
    expect((await callServer(server.url, '/v1/quotes-random', { key: bystander, unchecked: true })).status).toBe(200);
    await send(server, flood, newCombinations(8, 8));
    expect(await metric(server, 'quotes_cold_work_waits_total')).toBe(waited);
  });

  it('keeps what a key asks first while it does not lead the cold work, and forgets what a flooding key asks first', async () => {
    const server = await serverWithColdBound(1, { KEY_CALLS_AT_ONCE: '64' });
    const [flood = '', bystander = ''] = await enterpriseKeys(2);
    const misses = () => metric(server, 'quotes_cache_misses_total{cache="match_set"}');
    await send(server, bystander, ['/v1/quotes-random']);
    const floodPaths = newCombinations(0, 40);
    await send(server, flood, floodPaths);
    const bystanderPath = newCombinations(40, 1);
    await send(server, bystander, bystanderPath);

    // The bystander's first ask was kept: asked again, its set is found.
    const before = await misses();
    await send(server, bystander, bystanderPath);
    expect(await misses()).toBe(before);
    // The flood's calls lead the cold work from its 16th at the latest: from there on, what it
    // asked once was built and forgotten, so asked again each is built anew.
    await send(server, flood, floodPaths);
    expect((await misses()) - before).toBeGreaterThanOrEqual(40 - 16);
  });
});
