import { replaceCorpus } from '@quotes/corpus';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { recordStatementsOf } from '../support/catalogFixture.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RawFilters, type ResolvedFilter, resolveFilters } from '@quotes/accounts/rules';
import { systemClock } from '@quotes/accounts/rules';
import { silentLogger } from '@quotes/service-base';
import { createServiceRuntime, type ServiceRuntime } from '../../src/serviceRuntime.js';
import { fixtureRows, loadFixtureCorpus } from '../../testing/fixtureCorpus.js';

let database: TestDatabase;
let runtime: ServiceRuntime;
/** Every statement the runtime's pool is asked to run, as its text. */
let statements: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
  statements = recordStatementsOf(database.pool);
  runtime = await createServiceRuntime(database, {
    clock: systemClock,
    log: silentLogger,
    matchSetCacheBytes: 1 << 20,
    quoteTextCacheBytes: 1 << 20,
    heldQuoteBytes: 1 << 20,
  });
});
afterAll(async () => {
  await runtime?.close();
  await database?.drop();
});

function resolved(raw: RawFilters): ResolvedFilter {
  const resolution = resolveFilters(raw);
  if (!resolution.ok) throw new Error(JSON.stringify(resolution.errors));
  return resolution.filter;
}

const tagCodeReads = (table: string) =>
  statements.filter((text) => text.includes('int4send(rank)') && new RegExp(`FROM ${table} WHERE`).test(text));

describe('a corpus reload under a running server', () => {
  it('is indexed from the next table before the swap, so the first calls after it build nothing', async () => {
    const love = resolved({ category: 'love' });
    expect((await runtime.catalog.page(love, { limit: 1, offset: 0 })).total).toBe(10);
    statements.length = 0;

    const report = await replaceCorpus(database, fixtureRows(4), { source: 'reload' });
    expect(report.servers).toEqual({ listening: 1, answered: 1 });
    expect(tagCodeReads('quotes_next').length).toBeGreaterThan(0);

    // At once, before or after the notification of the swap has arrived: the same answer.
    const after = await runtime.catalog.page(love, { limit: 2, offset: 0 });
    expect(after.total).toBe(4);
    expect(
      (await runtime.catalog.page(resolved({ mood: 'uplifting' }), { limit: 1, offset: 0 })).total,
    ).toBeGreaterThan(0);
    expect(tagCodeReads('quotes')).toEqual([]);
  });

  it('builds the index after the swap when the announced one is not what was swapped in', async () => {
    // An announcement whose load never swapped (a killed loader), then another load.
    runtime.catalog.invalidate();
    await runtime.catalog.prepareNext({ version: 999, loader: 1 });
    statements.length = 0;
    await replaceCorpus(database, fixtureRows(3), { source: 'another reload' });
    expect((await runtime.catalog.page(resolved({ category: 'love' }), { limit: 1, offset: 0 })).total).toBe(3);
  });

  it('holds the quotes of the next corpus before the swap and answers random picks from them after it', async () => {
    statements.length = 0;
    await replaceCorpus(database, fixtureRows(5), { source: 'held quotes' });
    const stored = (await database.db.selectFrom('quotes').select('quote_json').execute()).map((row) => row.quote_json);
    const heldBytes = stored.reduce((sum, json) => sum + Buffer.byteLength(json), 0) + 4 * stored.length;
    expect(statements.filter((text) => /quote_json.*FROM quotes_next WHERE/s.test(text)).length).toBeGreaterThan(0);
    await vi.waitFor(() => expect(runtime.catalog.heldQuoteBytes).toBe(heldBytes), { timeout: 5000 });
    statements.length = 0;
    for (let n = 0; n < 20; n++) {
      const body = String((await runtime.catalog.randomQuote(resolved({})))?.body);
      expect(stored).toContain(body);
    }
    expect(statements.filter((text) => text.includes('quote_json'))).toEqual([]);
  });
});
