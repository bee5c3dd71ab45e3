import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpusState } from '../../src/data/catalog/quoteQueries.js';
import { RandomDrawBatcher } from '../../src/data/catalog/randomDrawBatcher.js';
import { recordingPool } from '../support/catalogFixture.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { quoteFields } from '../../testing/contractValidation.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
});
afterAll(() => database?.drop());

describe('random draws fetched in batches', () => {
  it('answers every draw with the quote at its rank, in far fewer statements than draws', async () => {
    const { version, size } = await readCorpusState(database.pool);
    const { pool, statements } = recordingPool(database.pool);
    const batcher = new RandomDrawBatcher(pool, 2);
    const ranks = Array.from({ length: 200 }, (_, i) => (i * 7) % size);
    const quotes = await Promise.all(ranks.map((rank) => batcher.fetch(rank, version)));
    const expected = await database.db.selectFrom('quotes').select(['rank', 'id']).execute();
    const idAt = new Map(expected.map((row) => [row.rank, row.id]));
    const parsed = quotes.map((quote) =>
      quote === undefined ? undefined : (JSON.parse(quote) as Record<string, unknown>),
    );
    expect(parsed.map((quote) => quote?.id)).toEqual(ranks.map((rank) => idAt.get(rank)));
    // Exactly the contract's nine Quote fields, in its order: nothing internal such as the rank.
    expect(Object.keys(parsed[0]!)).toEqual(quoteFields);
    expect(statements.length).toBeLessThan(20);
  });

  it('returns nothing for a corpus version that is no longer current', async () => {
    const { version } = await readCorpusState(database.pool);
    const batcher = new RandomDrawBatcher(database.pool);
    expect(await batcher.fetch(0, version + 1)).toBeUndefined();
    const first = await database.db.selectFrom('quotes').select('id').where('rank', '=', 0).executeTakeFirstOrThrow();
    expect((JSON.parse((await batcher.fetch(0, version))!) as { id: string }).id).toBe(first.id);
  });
});
