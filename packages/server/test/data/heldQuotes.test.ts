import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FiledQuotes } from '../../src/data/catalog/filedQuotes.js';
import { HeldQuotes } from '../../src/data/catalog/heldQuotes.js';
import { readCorpusState } from '../../src/data/catalog/quoteQueries.js';
import { type RawFilters, resolveFilters } from '@quotes/accounts/rules';
import type { QuoteCatalog } from '../../src/data/catalog/quoteCatalog.js';
import { recordingPool, testCatalog } from '../support/catalogFixture.js';
import { fixtureRows, loadFixtureCorpus } from '../../testing/fixtureCorpus.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
});
afterAll(() => database?.drop());

/** The Quote JSON PostgreSQL stores, in rank order. */
async function storedQuotes(): Promise<string[]> {
  const rows = await database.db.selectFrom('quotes').select('quote_json').orderBy('rank').execute();
  return rows.map((row) => row.quote_json);
}

function resolved(raw: RawFilters) {
  const resolution = resolveFilters(raw);
  if (!resolution.ok) throw new Error(JSON.stringify(resolution.errors));
  return resolution.filter;
}

/**
 * 30 random picks of `raw` from `catalog`, as their bodies, asserting that no quote was read by a
 * statement (`statements`: what the catalog's pool ran).
 */
async function picksWithNoStatement(catalog: QuoteCatalog, statements: string[], raw: RawFilters) {
  statements.length = 0;
  const bodies = new Set<string>();
  for (let n = 0; n < 30; n++) bodies.add(String((await catalog.randomQuote(resolved(raw)))?.body));
  expect(statements.filter((name) => name.startsWith('quotes-'))).toEqual([]);
  return bodies;
}

/**
 * Asserts that `catalog` answers an unfiltered page of every quote and a filtered page with each
 * item the summary PostgreSQL stores, running no statement for them (`statements`: what its pool
 * ran), and preloads no summaries; returns the stored summaries, in rank order.
 */
async function pagesWithNoStatement(catalog: QuoteCatalog, statements: string[]): Promise<string[]> {
  const summaries = (await database.db.selectFrom('quotes').select('summary_json').orderBy('rank').execute()).map(
    (row) => row.summary_json,
  );
  statements.length = 0;
  const all = await catalog.page(resolved({}), { limit: summaries.length, offset: 0 });
  expect(all.items.map(String)).toEqual(summaries);
  const love = await catalog.page(resolved({ category: 'love' }), { limit: 100, offset: 1 });
  expect(love.items.length).toBeGreaterThan(0);
  expect(love.items.map(String)).toEqual(love.ranks.map((rank) => summaries[rank]));
  expect(statements.filter((name) => name.startsWith('summaries-'))).toEqual([]);
  expect(await catalog.preloadTopSummaries(() => true)).toBe(0);
  return summaries;
}

describe('every quote held', () => {
  it('holds each quote as PostgreSQL stores it, read in chunks', async () => {
    const { version, size } = await readCorpusState(database.pool);
    const held = await HeldQuotes.load(database.pool, 'quotes', version, size, 1 << 20, 16);
    const stored = await storedQuotes();
    expect(stored.length).toBe(size);
    expect(stored.map((_, rank) => held?.quote(rank)?.toString('utf8'))).toEqual(stored);
    expect(held?.quote(size)).toBeUndefined();
    expect(held?.quote(-1)).toBeUndefined();
    expect(held?.byteLength).toBe(stored.reduce((sum, json) => sum + Buffer.byteLength(json), 0) + 4 * size);
  });

  it('holds nothing when the JSON does not fit the bound, by the first chunk or by the whole', async () => {
    const { version, size } = await readCorpusState(database.pool);
    const total = (await storedQuotes()).reduce((sum, json) => sum + Buffer.byteLength(json), 0);
    // The bound is on the JSON; each quote's end offset (4 bytes) is held beside it.
    const exactly = await HeldQuotes.load(database.pool, 'quotes', version, size, total, 16);
    expect(exactly?.byteLength).toBe(total + 4 * size);
    expect(await HeldQuotes.load(database.pool, 'quotes', version, size, total - 1, 16)).toBeUndefined();
    expect(await HeldQuotes.load(database.pool, 'quotes', version, size, total / 2, 16)).toBeUndefined();
    expect(await HeldQuotes.load(database.pool, 'quotes', version, size, 0)).toBeUndefined();
  });

  it('answers random picks with no statement, and a reload swaps what is held', async () => {
    const { pool, statements } = recordingPool(database.pool);
    const catalog = testCatalog(pool, { quoteTextBytes: 0, heldQuoteBytes: 1 << 20 });
    catalog.prepare();
    await catalog.whenPrepared();
    const heldBefore = catalog.heldQuoteBytes;
    expect(heldBefore).toBeGreaterThan(0);
    const picks = (raw: RawFilters) => picksWithNoStatement(catalog, statements, raw);
    const before = new Set(await storedQuotes());
    for (const body of await picks({})) expect(before.has(body)).toBe(true);
    for (const body of await picks({ category: 'love' })) expect(JSON.parse(body).category).toMatch(/Love/);

    await loadFixtureCorpus(database, fixtureRows(3));
    catalog.invalidate();
    await catalog.whenPrepared();
    expect(catalog.heldQuoteBytes).toBeGreaterThan(0);
    expect(catalog.heldQuoteBytes).toBeLessThan(heldBefore);
    const after = new Set(await storedQuotes());
    expect(after.size).toBeLessThan(before.size);
    for (const body of await picks({})) expect(after.has(body)).toBe(true);
    await loadFixtureCorpus(database);
  });

  it('answers pages with no statement, each summary the bytes PostgreSQL stores', async () => {
    const { pool, statements } = recordingPool(database.pool);
    const catalog = testCatalog(pool, { quoteTextBytes: 0, heldQuoteBytes: 1 << 20 });
    catalog.prepare();
    await catalog.whenPrepared();
    // Nothing is preloaded for pages, as the held quotes answer them.
    const summaries = await pagesWithNoStatement(catalog, statements);
    const unheld = testCatalog(database.pool, { heldQuoteBytes: 0 });
    expect(await unheld.preloadTopSummaries(() => true)).toBe(summaries.length);
  });
});

/** The files of quotes this process has open (unlinked ones show as "(deleted)"). */
function openQuoteFiles(): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.includes('quotes-json-'));
}

describe('every quote held in a file, when memory is not enough', () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'filed-quotes-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('reads each quote back as PostgreSQL stores it, from a file unlinked at once', async () => {
    const { version, size } = await readCorpusState(database.pool);
    const filed = await FiledQuotes.load(database.pool, 'quotes', version, size, {
      maxBytes: 1 << 20,
      directory,
      chunkRanks: 16,
    });
    const stored = await storedQuotes();
    expect(readdirSync(directory)).toEqual([]);
    expect(openQuoteFiles().every((target) => target.endsWith('(deleted)'))).toBe(true);
    expect(stored.map((_, rank) => filed?.quote(rank)?.toString('utf8'))).toEqual(stored);
    expect(filed?.quote(size)).toBeUndefined();
    expect(filed?.quote(-1)).toBeUndefined();
    const total = stored.reduce((sum, json) => sum + Buffer.byteLength(json), 0);
    expect(filed?.filedBytes).toBe(total);
    expect(filed?.byteLength).toBeLessThan(total / 10);
    filed?.release();
    expect(filed?.quote(0)).toBeUndefined();
    await expect.poll(openQuoteFiles).toEqual([]);
  });

  it('reads a page of quotes in runs, each quote what a read of its own gives', async () => {
    const { version, size } = await readCorpusState(database.pool);
    await fc.assert(
      fc.asyncProperty(
        fc.record({ nearBytes: fc.integer({ min: 0, max: 5000 }), runBytes: fc.integer({ min: 1, max: 70_000 }) }),
        fc.uniqueArray(fc.integer({ min: -2, max: size + 2 }), { maxLength: size + 5 }),
        async (runs, picked) => {
          const filed = await FiledQuotes.load(database.pool, 'quotes', version, size, {
            maxBytes: 1 << 20,
            directory,
            chunkRanks: 16,
            runs,
          });
          try {
            const ranks = picked.sort((a, b) => a - b);
            const asText = (quotes: (Buffer | undefined)[]) => quotes.map((quote) => quote?.toString('utf8'));
            expect(asText(filed?.quotes(ranks) ?? [])).toEqual(asText(ranks.map((rank) => filed?.quote(rank))));
          } finally {
            filed?.release();
          }
        },
      ),
      { numRuns: 40 },
    );
    await expect.poll(openQuoteFiles).toEqual([]);
  });

  it('answers pages with no statement, each summary the bytes PostgreSQL stores', async () => {
    const { pool, statements } = recordingPool(database.pool);
    const catalog = testCatalog(pool, {
      quoteTextBytes: 0,
      heldQuoteBytes: 1,
      quoteFileBytes: 1 << 20,
      quoteFileDirectory: directory,
    });
    try {
      catalog.prepare();
      await catalog.whenPrepared();
      expect(catalog.filedQuoteBytes).toBeGreaterThan(0);
      // Nothing is preloaded for pages, as the file answers them.
      await pagesWithNoStatement(catalog, statements);
    } finally {
      catalog.close();
    }
    await expect.poll(openQuoteFiles).toEqual([]);
  });

  it('files nothing when the JSON does not fit the bound or the file cannot be made', async () => {
    const { version, size } = await readCorpusState(database.pool);
    const total = (await storedQuotes()).reduce((sum, json) => sum + Buffer.byteLength(json), 0);
    const load = (maxBytes: number, where = directory) =>
      FiledQuotes.load(database.pool, 'quotes', version, size, { maxBytes, directory: where, chunkRanks: 16 });
    const exactly = await load(total);
    expect(exactly?.filedBytes).toBe(total);
    exactly?.release();
    expect(await load(total - 1)).toBeUndefined();
    expect(await load(total / 2)).toBeUndefined();
    expect(await load(0)).toBeUndefined();
    expect(await load(1 << 20, join(directory, 'no such folder'))).toBeUndefined();
    await expect.poll(openQuoteFiles).toEqual([]);
  });

  it('answers random picks with no statement, and a reload closes the old file', async () => {
    const { pool, statements } = recordingPool(database.pool);
    const catalog = testCatalog(pool, {
      quoteTextBytes: 0,
      heldQuoteBytes: 1,
      quoteFileBytes: 1 << 20,
      quoteFileDirectory: directory,
    });
    catalog.prepare();
    await catalog.whenPrepared();
    const filedBefore = catalog.filedQuoteBytes;
    expect(filedBefore).toBeGreaterThan(0);
    expect(openQuoteFiles()).toHaveLength(1);
    const picks = (raw: RawFilters) => picksWithNoStatement(catalog, statements, raw);
    const before = new Set(await storedQuotes());
    for (const body of await picks({})) expect(before.has(body)).toBe(true);
    for (const body of await picks({ category: 'love' })) expect(JSON.parse(body).category).toMatch(/Love/);

    await loadFixtureCorpus(database, fixtureRows(3));
    catalog.invalidate();
    await catalog.whenPrepared();
    expect(catalog.filedQuoteBytes).toBeGreaterThan(0);
    expect(catalog.filedQuoteBytes).toBeLessThan(filedBefore);
    await expect.poll(openQuoteFiles).toHaveLength(1);
    const after = new Set(await storedQuotes());
    for (const body of await picks({})) expect(after.has(body)).toBe(true);
    catalog.close();
    await expect.poll(openQuoteFiles).toEqual([]);
    await loadFixtureCorpus(database);
  });

  it('closes the file of a next corpus superseded or dropped before its swap', async () => {
    await database.pool.query('DROP TABLE IF EXISTS quotes_next; CREATE TABLE quotes_next AS SELECT * FROM quotes');
    const catalog = testCatalog(database.pool, {
      quoteTextBytes: 0,
      heldQuoteBytes: 1,
      quoteFileBytes: 1 << 20,
      quoteFileDirectory: directory,
    });
    try {
      catalog.prepare();
      await catalog.whenPrepared();
      expect(openQuoteFiles()).toHaveLength(1);
      await catalog.prepareNext({ version: 900, loader: 1 });
      await catalog.prepareNext({ version: 901, loader: 1 });
      expect(openQuoteFiles()).toHaveLength(1);
      // A swap that is neither announcement (a killed loader, then another load): both are dropped.
      catalog.invalidate({ version: 902, loader: 2 });
      await catalog.whenPrepared();
      expect(openQuoteFiles()).toHaveLength(1);
    } finally {
      catalog.close();
      await database.pool.query('DROP TABLE quotes_next');
    }
    await expect.poll(openQuoteFiles).toEqual([]);
  });
});
