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
let server: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
  server = await startServer({
    config: testConfig(),
    database,
    metricsPort: 0,
    shutdownGraceMs: 2000,
  });
});
afterAll(async () => {
  await server?.close();
  await database?.drop();
});

async function metric(name: string): Promise<number> {
  return Number((await scrape(server.metricsUrl ?? '')).samples.get(name));
}

/** Filter combinations no call has asked this server for: mood and era pairs, pages and random picks. */
function newCombinations(from: number, count: number): string[] {
  const pairs = taxonomy.moods.flatMap((mood) => taxonomy.eras.map((era) => ({ mood, era })));
  return pairs
    .slice(from, from + count)
    .map(({ mood, era }, index) =>
      index % 2 === 0
        ? `/v1/quotes-filter?mood=${encodeURIComponent(mood)}&era=${encodeURIComponent(era)}&limit=20`
        : `/v1/quotes-random?mood=${encodeURIComponent(mood)}&era=${encodeURIComponent(era)}`,
    );
}

const send = (key: string, paths: string[]) =>
  Promise.all(paths.map((path) => callServer(server.url, path, { key, unchecked: true })));

describe("one key's new filter combinations beside other keys' calls", () => {
  it('runs them one at a time while another key is served, all answered; alone, together', async () => {
    const operator = createOperatorApi(database);
    const flood = (await operator.createKey({ client: 'Flood', plan: 'enterprise', unlimited: true })).key;
    const bystander = (await operator.createKey({ client: 'Bystander', plan: 'enterprise', unlimited: true })).key;

    // Alone: eight new combinations at once run together, none waits.
    const alone = await send(flood, newCombinations(0, 8));
    expect(alone.map((answer) => answer.status).every((status) => status === 200 || status === 404)).toBe(true);
    expect(await metric('quotes_cold_work_waits_total')).toBe(0);

    // Another key's call arrives: the flood key's next eight, sent within the second that call
    // counts for (its answer unchecked: checking it against the contract takes time under load),
    // take their turns, one after another.
    expect((await callServer(server.url, '/v1/quotes-random', { key: bystander, unchecked: true })).status).toBe(200);
    const beside = await send(flood, newCombinations(8, 8));
    expect(beside.map((answer) => answer.status).every((status) => status === 200 || status === 404)).toBe(true);
    expect(await metric('quotes_cold_work_waits_total')).toBeGreaterThanOrEqual(7);
    expect(await metric('quotes_cold_work_refusals_total')).toBe(0);

    // Combinations the server keeps (asked twice: the second ask keeps them) are no one's cold
    // work: asked again beside another key's call, nothing more waits.
    await send(flood, newCombinations(8, 8));
    const waited = await metric('quotes_cold_work_waits_total');
    expect((await callServer(server.url, '/v1/quotes-random', { key: bystander, unchecked: true })).status).toBe(200);
    await send(flood, newCombinations(8, 8));
    expect(await metric('quotes_cold_work_waits_total')).toBe(waited);
  });
});
