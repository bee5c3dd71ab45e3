import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warmUpCatalog, warmUpReads } from '../../src/data/catalog/catalogWarmUp.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { recordingPool, testCatalog } from '../support/catalogFixture.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
});
afterAll(() => database?.drop());

describe('warming the catalog before answering', () => {
  it('reads pages, random picks and the filter values, then keeps none of the quotes or sets it read', async () => {
    const { pool, statements } = recordingPool(database.pool);
    const catalog = testCatalog(pool);
    await warmUpCatalog(catalog, 10_000);
    expect(statements).toContain('summaries-by-rank');
    expect(statements).toContain('quotes-by-rank');
    expect(statements.some((text) => text.includes('json_object_agg'))).toBe(true);
    expect(catalog.cachedMatchSetBytes).toBe(0);

    // Read again, the first page with quotes reads them from PostgreSQL: the warm-up kept none.
    statements.length = 0;
    for (const { filter, page } of warmUpReads()) {
      const read = await catalog.page(filter, page);
      if (read.items.length === 0) continue;
      expect(statements).toEqual(['summaries-by-rank']);
      return;
    }
    throw new Error('no warm-up page has quotes in the fixture corpus');
  });

  it('stops waiting at its deadline when the database is slow', async () => {
    const { pool } = recordingPool(database.pool, 1500);
    const catalog = testCatalog(pool);
    const started = performance.now();
    await warmUpCatalog(catalog, 200);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
