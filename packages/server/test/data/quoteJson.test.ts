import { lengthOfText } from '@quotes/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorpusRow } from '@quotes/corpus';
import { quoteJsonKeys, quoteSummaryJsonKeys } from '../../src/domain/responseBodies.js';
import { jsonAt, quotesInDrawOrder, readCorpusState, summariesByRank } from '../../src/data/catalog/quoteQueries.js';
import { fixtureRows, loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

let database: TestDatabase;

// Everything JSON must escape or carry through: quotes, backslashes, a newline and a tab (CSV
// imports keep them), a control character, non-ASCII letters and an astral-plane emoji (one
// character, two UTF-16 units: the length rule counts it once).
const awkward: CorpusRow = {
  text: `He said "no" \\ then\nleft\twith \u0001 a smile: déjà vu, 東京, 🌙${'.'.repeat(80)}`,
  author: 'Zoë "Quoted" O\'Brien',
  category: 'Humor & Wit',
  secondary_category: null,
  moods: ['humorous', 'reflective'],
  era: 'Present',
  faith_tradition: null,
  // Far above the fixture's scores: rank 0.
  score: 1000,
};

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database, [awkward, ...fixtureRows(1)]);
});
afterAll(() => database?.drop());

describe('the JSON the database stores for each quote', () => {
  it('is the contract Quote, exact to the character, with the length the text has', async () => {
    const { version } = await readCorpusState(database.pool);
    const run = await quotesInDrawOrder(database.pool, [0], version);
    const quote = JSON.parse(jsonAt(run!, 0).toString('utf8')) as Record<string, unknown>;
    expect(Object.keys(quote)).toEqual(quoteJsonKeys);
    expect(quote).toMatchObject({
      text: awkward.text,
      author: awkward.author,
      secondary_category: null,
      mood: 'humorous,reflective',
      faith_tradition: null,
    });
    expect(quote.length).toBe(lengthOfText(awkward.text));
    const row = await database.db
      .selectFrom('quotes')
      .select(['id', 'length'])
      .where('rank', '=', 0)
      .executeTakeFirstOrThrow();
    expect(quote.id).toBe(row.id);
    expect(quote.length).toBe(row.length);
  });

  it('is the contract QuoteSummary in list pages, by rank', async () => {
    const { version, size } = await readCorpusState(database.pool);
    const ranks = Array.from({ length: size }, (_, rank) => rank);
    const summaries = await summariesByRank(database.pool, ranks, version);
    const items = ranks.map((rank) => JSON.parse(summaries.get(rank) ?? 'null') as Record<string, unknown>);
    expect(items).toHaveLength(size);
    expect(Object.keys(items[0]!)).toEqual(quoteSummaryJsonKeys);
    expect(items[0]!.text).toBe(awkward.text);
    const ids = await database.db.selectFrom('quotes').select('id').orderBy('rank').execute();
    expect(items.map((item) => item.id)).toEqual(ids.map((row) => row.id));
  });
});
