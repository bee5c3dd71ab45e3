import { taxonomy } from '@quotes/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankTagCodes, readCorpusState } from '../../src/data/quoteQueries.js';
import { TaxonomyIndex, tagCodeLayout } from '../../src/data/taxonomyIndex.js';
import { resolveFilters } from '../../src/domain/filterResolution.js';
import { loadFixtureCorpus } from '../support/fixtureCorpus.js';
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
});
afterAll(() => database?.drop());

async function ranksWhere(where: string, values: unknown[]): Promise<number[]> {
  const result = await database.pool.query<{ rank: number }>(
    `SELECT rank FROM quotes WHERE ${where} ORDER BY rank`,
    values,
  );
  return result.rows.map((row) => row.rank);
}

describe('the taxonomy index read from PostgreSQL', () => {
  it('holds, for every taxonomy value, exactly the ranks SQL finds, under the current corpus version', async () => {
    const { version, pairs } = await rankTagCodes(database.pool, tagCodeLayout());
    const state = await readCorpusState(database.pool);
    const index = TaxonomyIndex.fromPairs(version, pairs);
    expect(index.version).toBe(state.version);
    expect(index.rankBound).toBe(state.size);
    const all = (raw: Parameters<typeof resolveFilters>[0]) => {
      const resolution = resolveFilters(raw);
      if (!resolution.ok) throw new Error(JSON.stringify(resolution.errors));
      return index.matching(resolution.filter).slice(0, state.size);
    };
    for (const category of taxonomy.categories)
      expect(all({ category })).toEqual(await ranksWhere('category = ANY($1::text[])', [resolvedCategories(category)]));
    for (const mood of taxonomy.moods) expect(all({ mood })).toEqual(await ranksWhere('moods && $1::text[]', [[mood]]));
    for (const length of taxonomy.lengths) expect(all({ length })).toEqual(await ranksWhere('length = $1', [length]));
    for (const era of taxonomy.eras) expect(all({ era })).toEqual(await ranksWhere('era = $1', [era]));
    for (const faith of taxonomy.faithTraditions)
      expect(all({ faith })).toEqual(await ranksWhere('faith_tradition = $1', [faith]));
    expect(all({ category: 'e', mood: 'ous', era: 'Modern' })).toEqual(
      await ranksWhere("category = ANY($1::text[]) AND moods && $2::text[] AND era = 'Modern'", [
        resolvedCategories('e'),
        taxonomy.moods.filter((mood) => mood.includes('ous')),
      ]),
    );
  });
});

/** A category filter matches by substring (see filterResolution.ts). */
function resolvedCategories(text: string): string[] {
  return taxonomy.categories.filter((category) => category.toLowerCase().includes(text.toLowerCase()));
}
