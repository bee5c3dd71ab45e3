import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { createOperatorApi } from '@quotes/accounts';
import { entryBytes } from '../../src/data/history/historyHoldings.js';
import { startServer } from '../../src/startServer.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { testConfig } from '../../testing/testConfig.js';

// A real server whose usage history has a budget of 4 KB: its keys' calls keep reaching it, so it
// flushes early again and again while calls arrive; each key's `served` history must still equal
// its monthly counter.
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
});
afterAll(() => database?.drop());

async function scrape(url: string): Promise<Map<string, number>> {
  const samples = new Map<string, number>();
  for (const line of (await (await fetch(url)).text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    samples.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return samples;
}

describe('the usage history at its byte budget on a real server', () => {
  it("flushes early and loses no call: every key's served history equals its monthly counter", async () => {
    const server = await startServer({
      config: testConfig(),
      database,
      metricsPort: 0,
      shutdownGraceMs: 2000,
      historyMaxBytes: 4096,
    });
    const operator = createOperatorApi(database);
    const calls = 15;
    const originOf = (key: number, call: number) => `https://app-${key}-${call}.example`;
    const keys = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        operator.createKey({
          client: `Budget ${index}`,
          plan: 'professional',
          allowedOrigins: Array.from({ length: calls }, (_, call) => originOf(index, call)),
        }),
      ),
    );
    // Each key: random quotes and distinct pages, each call from an origin of its own.
    await Promise.all(
      keys.map(async (issued, index) => {
        for (let call = 0; call < calls; call++) {
          const path = call % 3 === 0 ? `/v1/quotes-filter?limit=10&offset=${call * 10}` : '/v1/quotes-random';
          const response = await fetch(`${server.url}${path}`, {
            headers: { 'X-API-Key': issued.key, Origin: originOf(index, call) },
          });
          expect(response.status).toBe(200);
          await response.arrayBuffer();
        }
      }),
    );
    const samples = await scrape(server.metricsUrl ?? '');
    expect(samples.get('quotes_usage_history_early_flushes_total')).toBeGreaterThan(0);
    // Held: at most the budget, plus the counts (always kept) of the 12 keys' hour.
    const countsOfTheHour = keys.length * (entryBytes.countKey + entryBytes.countOutcome);
    expect(samples.get('quotes_usage_history_bytes')).toBeLessThanOrEqual(4096 + countsOfTheHour);
    await server.close();

    for (const issued of keys) {
      const counted = (await operator.usage(issued.id)).calls;
      const rows = await operator.usageHistory(issued.id, { by: 'day' });
      const served = rows.filter((row) => row.outcome === 'served').reduce((sum, row) => sum + row.calls, 0);
      expect(counted).toBe(calls);
      expect(served).toBe(counted);
    }
  }, 60_000);
});
