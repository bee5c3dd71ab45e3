import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonAt, quotesInDrawOrder, readCorpusState } from '../../src/data/catalog/quoteQueries.js';
import { type RandomPick, RandomPicks } from '../../src/data/catalog/randomPicks.js';
import { resolveFilters } from '@quotes/accounts/rules';
import { quoteFields } from '../../testing/contractValidation.js';
import { recordingPool, testCatalog } from '../support/catalogFixture.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';

let database: TestDatabase;
let storedAt: Map<number, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
  const rows = await database.db.selectFrom('quotes').select(['rank', 'quote_json']).execute();
  storedAt = new Map(rows.map((row) => [row.rank, row.quote_json]));
});
afterAll(() => database?.drop());

/** Draws that walk the ranks in a fixed order, recording every rank handed to the pool. */
function walkingDraws(size: number) {
  const drawn: number[] = [];
  let next = 0;
  const draw = async (count: number) => {
    const ranks = Array.from({ length: count }, () => (next++ * 7) % size);
    drawn.push(...ranks);
    return ranks;
  };
  return { draw, drawn };
}

const picked = (pick: RandomPick | string): RandomPick => {
  if (typeof pick === 'string') throw new Error(`expected a pick, got ${pick}`);
  return pick;
};

describe('quotes fetched in draw order', () => {
  it('answers each rank, repeats included, in the order asked, as the contract Quote PostgreSQL stores', async () => {
    const { version, size } = await readCorpusState(database.pool);
    const ranks = [3, 0, 3, size - 1, 1];
    const run = await quotesInDrawOrder(database.pool, ranks, version);
    const texts = ranks.map((_, index) => jsonAt(run!, index).toString('utf8'));
    expect(texts).toEqual(ranks.map((rank) => storedAt.get(rank)));
    expect(Object.keys(JSON.parse(texts[0]!) as object)).toEqual(quoteFields);
  });

  it('answers nothing for a corpus version no longer served or a rank outside the corpus', async () => {
    const { version, size } = await readCorpusState(database.pool);
    expect(await quotesInDrawOrder(database.pool, [0], version + 1)).toBeUndefined();
    expect(await quotesInDrawOrder(database.pool, [0, size], version)).toBeUndefined();
  });
});

describe('random picks drawn ahead', () => {
  it('hands out every draw once, in the order drawn, in batches that double per statement', async () => {
    const { version, size } = await readCorpusState(database.pool);
    const { pool, statements } = recordingPool(database.pool);
    const picks = new RandomPicks(pool, 64);
    const { draw, drawn } = walkingDraws(size);
    const answered: RandomPick[] = [];
    for (let call = 0; call < 1000; call++) answered.push(picked(await picks.take(version, draw)));
    expect(answered.map((pick) => pick.rank)).toEqual(drawn.slice(0, 1000));
    expect(answered.map((pick) => pick.quote.toString('utf8'))).toEqual(
      answered.map((pick) => storedAt.get(pick.rank)),
    );
    // 1 + 2 + ... + 64, then 64 a statement: about 22 statements for 1,000 picks, and a batch
    // fetched while a whole one is left: at most two batches drawn ahead.
    expect(statements.length).toBeGreaterThanOrEqual(21);
    expect(statements.length).toBeLessThanOrEqual(23);
    expect(drawn.length - 1000).toBeLessThanOrEqual(128);
  });

  it('gives callers arriving together each a draw of their own', async () => {
    const { version, size } = await readCorpusState(database.pool);
    const picks = new RandomPicks(database.pool, 32);
    const { draw, drawn } = walkingDraws(size);
    const answered = await Promise.all(Array.from({ length: 300 }, () => picks.take(version, draw)));
    const ranks = answered.map((pick) => picked(pick).rank);
    expect(ranks).toEqual(drawn.slice(0, 300));
  });

  it('says when nothing matches and when the corpus is no longer the one drawn from', async () => {
    const { version, size } = await readCorpusState(database.pool);
    const picks = new RandomPicks(database.pool);
    expect(await picks.take(version, async () => [])).toBe('no-match');
    expect(await picks.take(version + 1, walkingDraws(size).draw)).toBe('corpus-changed');
    expect(picked(await picks.take(version, walkingDraws(size).draw)).rank).toBe(0);
  });

  it('fails the callers of a failed statement and recovers on the next call', async () => {
    const { version, size } = await readCorpusState(database.pool);
    let failing = true;
    const flaky = {
      query: (...args: unknown[]) =>
        failing
          ? Promise.reject(new Error('connection lost'))
          : (database.pool.query as (...a: unknown[]) => unknown).apply(database.pool, args),
    } as unknown as pg.Pool;
    const picks = new RandomPicks(flaky);
    const { draw } = walkingDraws(size);
    await expect(Promise.all([picks.take(version, draw), picks.take(version, draw)])).rejects.toThrow(
      'connection lost',
    );
    failing = false;
    const pick = picked(await picks.take(version, draw));
    expect(pick.quote.toString('utf8')).toBe(storedAt.get(pick.rank));
  });

  it('serves the catalog: picks follow its random draws, unfiltered and filtered, matching the filter', async () => {
    const { size } = await readCorpusState(database.pool);
    const draws = Array.from({ length: 400 }, (_, i) => ((i * 37) % 100) / 100);
    let at = 0;
    const catalog = testCatalog(database.pool, { heldQuoteBytes: 0, random: () => draws[at++ % draws.length]! });
    const unfiltered = resolveFilters({});
    if (!unfiltered.ok) throw new Error('unfiltered');
    const ranks: number[] = [];
    for (let call = 0; call < 50; call++) ranks.push((await catalog.randomQuote(unfiltered.filter))!.rank);
    expect(ranks).toEqual(draws.slice(0, 50).map((r) => Math.floor(r * size)));
    const humor = resolveFilters({ category: 'humor' });
    if (!humor.ok) throw new Error('humor');
    for (let call = 0; call < 30; call++) {
      const quote = JSON.parse((await catalog.randomQuote(humor.filter))!.body.toString()) as { category: string };
      expect(quote.category).toMatch(/humor/i);
    }
  });
});
