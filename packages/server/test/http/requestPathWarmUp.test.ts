import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContractRouting } from '../../src/http/contractRouting.js';
import { warmUpRequestPath, warmUpUrls } from '../../src/http/requestPathWarmUp.js';
import { parseQuery, routeOf } from '../../src/http/apiCall.js';
import { fixtureRows, loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { recordingPool, testCatalog } from '../support/catalogFixture.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
});
afterAll(() => database?.drop());

describe('warming the request path before listening', () => {
  it('writes only calls the contract accepts, of both reading operations, with every filter', async () => {
    const routing = await loadContractRouting();
    const urls = warmUpUrls();
    const filters = new Set<string>();
    for (const url of urls) {
      const { query } = parseQuery(routeOf({ method: 'GET', url }, routing), url);
      for (const name of ['category', 'mood', 'era', 'length', 'faith']) if (name in query) filters.add(name);
    }
    expect(filters.size).toBe(5);
    expect(new Set(urls.map((url) => url.split('?')[0]))).toEqual(new Set(['/v1/quotes-random', '/v1/quotes-filter']));
    expect(urls.some((url) => url.endsWith('?'))).toBe(true);
  });

  it('makes every call of every pass, forgets what they read, and fills the cache with the summaries of the first ranks', async () => {
    const { pool, statements } = recordingPool(database.pool);
    const catalog = testCatalog(pool);
    const routing = await loadContractRouting();
    const outcome = await warmUpRequestPath(routing, catalog, 60_000, 2);
    expect(outcome.calls).toBe(2 * warmUpUrls().length);
    expect(statements).toContain('summaries-by-rank');
    expect(statements).toContain('quotes-by-rank');
    expect(statements.some((text) => text.includes('json_object_agg'))).toBe(true);
    expect(catalog.cachedMatchSetBytes).toBe(0);
    // The fixture corpus fits the cache whole.
    expect(outcome.summaries).toBe(fixtureRows().length);

    // Every page is then answered from memory, without a statement.
    statements.length = 0;
    let pages = 0;
    for (const url of warmUpUrls().filter((url) => url.startsWith('/v1/quotes-filter'))) {
      const { filter } = parseQuery(routeOf({ method: 'GET', url }, routing), url);
      if ((await catalog.page(filter, { limit: 100, offset: 0 })).items.length > 0) pages++;
    }
    expect(pages).toBeGreaterThan(0);
    expect(statements).toEqual([]);
  });

  it('stops at its deadline when the database is slow', async () => {
    const { pool } = recordingPool(database.pool, 1500);
    const catalog = testCatalog(pool);
    const started = performance.now();
    await warmUpRequestPath(await loadContractRouting(), catalog, 200);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
