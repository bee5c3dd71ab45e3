import { replaceCorpus } from '@quotes/corpus';
import { corpusListenerName, corpusNextChannel, corpusPreparedChannel } from '@quotes/database';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorpusAnnouncement } from '../../src/data/databaseNotifications.js';
import { QuoteCatalog } from '../../src/data/catalog/quoteCatalog.js';
import { type RawFilters, type ResolvedFilter, resolveFilters } from '@quotes/accounts/rules';
import { fixtureRows, loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { recordingPool, testCatalog } from '../support/catalogFixture.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
});
afterAll(() => database?.drop());

function resolved(raw: RawFilters): ResolvedFilter {
  const resolution = resolveFilters(raw);
  if (!resolution.ok) throw new Error(JSON.stringify(resolution.errors));
  return resolution.filter;
}

async function sqlTotal(where: string, values: unknown[]): Promise<number> {
  const result = await database.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM quotes WHERE ${where}`,
    values,
  );
  return result.rows[0]?.n ?? -1;
}

describe('the quote catalog on the taxonomy index', () => {
  it('answers a never-seen combination with one page fetch and no match-set query', async () => {
    const { pool, statements } = recordingPool(database.pool);
    // No quote text kept, so every page with items reads its quotes.
    const catalog = new QuoteCatalog(pool, { cacheBytes: 1 << 20, quoteTextBytes: 0, notificationsLive: () => true });
    // The first call reads the corpus state and builds the index once.
    await catalog.page(resolved({ category: 'love' }), { limit: 5, offset: 0 });
    statements.length = 0;
    const combinations: RawFilters[] = [
      { category: 'e', mood: 'reflective' },
      { category: 'a', era: 'Modern', length: 'Short' },
      { mood: 'dark', length: 'Long' },
      { faith: 'Buddhist' },
      { category: 'parent', mood: 'ing', era: 'Ancient', faith: 'Taoist' },
    ];
    let pagesWithItems = 0;
    for (const raw of combinations) {
      const page = await catalog.page(resolved(raw), { limit: 3, offset: 1 });
      const filter = resolved(raw);
      const conditions: string[] = [];
      const values: unknown[] = [];
      if (filter.categories) conditions.push(`category = ANY($${values.push(filter.categories)}::text[])`);
      if (filter.moods) conditions.push(`moods && $${values.push(filter.moods)}::text[]`);
      if (filter.length) conditions.push(`length = $${values.push(filter.length)}`);
      if (filter.era) conditions.push(`era = $${values.push(filter.era)}`);
      if (filter.faith) conditions.push(`faith_tradition = $${values.push(filter.faith)}`);
      const total = await sqlTotal(conditions.join(' AND '), values);
      expect(page.total, JSON.stringify(raw)).toBe(total);
      expect(page.items).toHaveLength(Math.max(0, Math.min(3, total - 1)));
      if (page.items.length > 0) pagesWithItems++;
    }
    // One statement per call, and for a page of nothing, none at all.
    expect(pagesWithItems).toBeGreaterThanOrEqual(3);
    expect(statements).toEqual(Array(pagesWithItems).fill('summaries-by-rank'));
    statements.length = 0;
    const quote = await catalog.randomQuote(resolved({ category: 'hope', mood: 'uplifting' }));
    expect(JSON.parse(String(quote?.body ?? '{}')).category).toMatch(/Hope/);
    expect(statements).toEqual(['quotes-by-rank']);
  });

  it('answers pages read before from memory, and never from another corpus version', async () => {
    const { pool, statements } = recordingPool(database.pool);
    const catalog = testCatalog(pool);
    const everything = resolved({});
    const stored = async () =>
      (await database.db.selectFrom('quotes').select('summary_json').orderBy('rank').execute()).map(
        (row) => row.summary_json,
      );
    const first = await catalog.page(everything, { limit: 5, offset: 0 });
    expect(first.items.map(String)).toEqual((await stored()).slice(0, 5));
    statements.length = 0;
    const overlapping = await catalog.page(everything, { limit: 3, offset: 2 });
    expect(overlapping.items).toEqual(first.items.slice(2, 5));
    expect(statements).toEqual([]);
    const moved = await catalog.page(everything, { limit: 5, offset: 4 });
    // Rank 4 was kept; only the four after it are read, in one statement.
    expect(statements).toEqual(['summaries-by-rank']);
    expect(moved.items.map(String)).toEqual((await stored()).slice(4, 9));

    // Another corpus with the same ranks: its text, not the kept one.
    await loadFixtureCorpus(
      database,
      fixtureRows().map((row) => ({ ...row, text: `${row.text} Again.` })),
    );
    catalog.invalidate();
    const replaced = await catalog.page(everything, { limit: 5, offset: 0 });
    expect(replaced.items.map(String)).toEqual((await stored()).slice(0, 5));
    expect(replaced.items).not.toEqual(first.items);
    await loadFixtureCorpus(database);
  });

  it('caches a combination match set at its first ask while the cache is under half full and the caller allows it, else at its second', async () => {
    const once = resolved({ category: 'a', mood: 'ing' });
    const roomy = testCatalog(database.pool);
    const answer = await roomy.page(once, { limit: 4, offset: 1 });
    expect(roomy.cachedMatchSetBytes).toBeGreaterThan(0);
    // Half of 300 bytes holds no set of this corpus (430 ranks: 14 words, 2 of directory, 128 of entry), a whole one does.
    const tight = testCatalog(database.pool, { cacheBytes: 300 });
    const first = await tight.page(once, { limit: 4, offset: 1 });
    expect(tight.cachedMatchSetBytes).toBe(0);
    const second = await tight.page(once, { limit: 4, offset: 1 });
    expect(tight.cachedMatchSetBytes).toBeGreaterThan(0);
    for (const page of [first, second, await tight.page(once, { limit: 4, offset: 1 })]) expect(page).toEqual(answer);
    // A first ask that may not be kept (one of a key leading the cold work) is built and forgotten, room or not.
    const strict = testCatalog(database.pool);
    await strict.randomQuote(once, 'kept-from-second-ask');
    expect(strict.cachedMatchSetBytes).toBe(0);
    await strict.randomQuote(once, 'kept-from-second-ask');
    expect(strict.cachedMatchSetBytes).toBeGreaterThan(0);
  });

  it('keeps a page whole from its second ask (its first, while the cache is under half full and the caller allows it), the same bytes as built, and never across corpus versions', async () => {
    const filter = resolved({ category: 'a', mood: 'ing' });
    const page = { limit: 4, offset: 1 };
    const roomy = testCatalog(database.pool);
    const kept = await roomy.pageBody(filter, page);
    expect((await roomy.pageBody(filter, page)).body).toBe(kept.body);
    const strict = testCatalog(database.pool);
    const once = await strict.pageBody(filter, page, 'kept-from-second-ask');
    const again = await strict.pageBody(filter, page, 'kept-from-second-ask');
    expect(again.body).not.toBe(once.body);
    expect((await strict.pageBody(filter, page)).body).toBe(again.body);
    // Pages are kept in a quarter of quoteTextBytes: here one and a half of this page, so its first ask finds no free room.
    const pageBytes = kept.body.length + kept.ranks.length * 8 + 128;
    const catalog = testCatalog(database.pool, { quoteTextBytes: 4 * Math.floor(1.5 * pageBytes) });
    const built = await catalog.pageBody(filter, page);
    const parsed = JSON.parse(String(built.body)) as { quotes: { id: string }[]; total: number; limit: number };
    const read = await catalog.page(filter, page);
    expect(parsed.quotes.map((quote) => JSON.stringify(quote))).toEqual(read.items.map(String));
    expect(parsed).toMatchObject({ total: read.total, limit: 4, offset: 1, has_more: read.hasMore });
    expect(built.ranks).toEqual(read.ranks);
    // Asked once, built and forgotten; asked again, kept: the third ask is the kept Buffer itself.
    const second = await catalog.pageBody(filter, page);
    expect(second.body).not.toBe(built.body);
    expect(String(second.body)).toBe(String(built.body));
    expect((await catalog.pageBody(filter, page)).body).toBe(second.body);

    await loadFixtureCorpus(
      database,
      fixtureRows().map((row) => ({ ...row, text: `${row.text} Again.` })),
    );
    catalog.invalidate();
    const replaced = await catalog.pageBody(filter, page);
    expect(String(replaced.body)).toContain('Again.');
    await loadFixtureCorpus(database);
  });

  it('rebuilds the index for a new corpus version once told the corpus changed', async () => {
    const catalog = testCatalog(database.pool);
    const before = await catalog.page(resolved({ category: 'love' }), { limit: 1, offset: 0 });
    expect(before.total).toBe(10);
    await loadFixtureCorpus(database, fixtureRows(4));
    catalog.invalidate();
    const after = await catalog.page(resolved({ category: 'love' }), { limit: 1, offset: 0 });
    expect(after.total).toBe(4);
  });

  it('answers the same when the index is read in many chunks', async () => {
    const whole = testCatalog(database.pool);
    const chunked = testCatalog(database.pool, { indexChunkRanks: 37 });
    for (const raw of [{ category: 'e' }, { mood: 'ing', era: 'Modern' }, { length: 'Short', faith: 'Buddhist' }]) {
      const [one, many] = await Promise.all([
        whole.page(resolved(raw), { limit: 1000, offset: 0 }),
        chunked.page(resolved(raw), { limit: 1000, offset: 0 }),
      ]);
      expect(many.total).toBeGreaterThan(0);
      expect(many).toEqual(one);
    }
  });

  it('uses the index built before a swap whether a read or the notification notices the swap first', async () => {
    const { pool, statements } = recordingPool(database.pool);
    const catalog = testCatalog(pool);
    const love = resolved({ category: 'love' });
    await catalog.page(love, { limit: 1, offset: 0 });
    // A server's part of a reload, as its notification connection plays it.
    const listener = new pg.Client({ connectionString: database.url, application_name: corpusListenerName });
    await listener.connect();
    let announced: CorpusAnnouncement | undefined;
    listener.on('notification', (message) => {
      if (message.channel !== corpusNextChannel) return;
      announced = { version: Number(message.payload), loader: message.processId };
      void catalog
        .prepareNext(announced)
        .then(() => listener.query('SELECT pg_notify($1, $2)', [corpusPreparedChannel, message.payload]));
    });
    await listener.query(`LISTEN ${corpusNextChannel}`);
    try {
      const report = await replaceCorpus(database, fixtureRows(5), { source: 'race' });
      expect(report.servers).toEqual({ listening: 1, answered: 1 });
      statements.length = 0;
      // No notification of the swap yet: a read of quotes not kept finds the corpus replaced and starts over.
      expect((await catalog.page(love, { limit: 1, offset: 3 })).total).toBe(5);
      // Then it arrives.
      catalog.invalidate(announced);
      expect((await catalog.page(resolved({ mood: 'dark' }), { limit: 1, offset: 0 })).total).toBeGreaterThan(0);
      expect(statements.filter((text) => text.includes('int4send(rank)'))).toEqual([]);
    } finally {
      await listener.end();
    }
  });

  it('notices a new corpus version by itself when notifications are not live', async () => {
    const catalog = testCatalog(database.pool, { notificationsLive: () => false });
    await loadFixtureCorpus(database, fixtureRows(6));
    expect((await catalog.page(resolved({ category: 'love' }), { limit: 1, offset: 0 })).total).toBe(6);
    await loadFixtureCorpus(database, fixtureRows(2));
    expect((await catalog.page(resolved({ category: 'love' }), { limit: 1, offset: 0 })).total).toBe(2);
  });
});
