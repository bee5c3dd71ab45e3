import { taxonomy } from '@quotes/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computedTagCode, rankTagCodes, readCorpusState } from '../../src/data/catalog/quoteQueries.js';
import { layoutDescription, TaxonomyIndex, tagCodeLayout } from '../../src/data/catalog/taxonomyIndex.js';
import { resolveFilters } from '@quotes/accounts/rules';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

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

// The stored codes (migration 20261123T1800) in the contract's layout, and codes computed in the
// query for a layout they were not written in (as after a change of the taxonomy).
const reordered = tagCodeLayout({
  ...taxonomy,
  categories: [...taxonomy.categories].reverse(),
  moods: [...taxonomy.moods].reverse(),
});

describe('the taxonomy index read from PostgreSQL', () => {
  it('stores, in every row, the tag code the query would compute', async () => {
    const code = computedTagCode(tagCodeLayout());
    const result = await database.pool.query<{ differing: number; rows: number }>(
      `SELECT count(*) FILTER (WHERE tag_code <> (${code.sql}))::int AS differing, count(*)::int AS rows FROM quotes`,
      code.values,
    );
    expect(result.rows[0]).toEqual({ differing: 0, rows: 430 });
    // The stored codes are read only in the layout they were written in: today's.
    const stored = await database.pool.query<{ layout: string }>('SELECT quote_tag_layout() AS layout');
    expect(stored.rows[0]?.layout).toBe(layoutDescription(tagCodeLayout()));
    expect(layoutDescription(reordered)).not.toBe(layoutDescription(tagCodeLayout()));
  });

  it.each([
    ['stored codes', tagCodeLayout()],
    ['codes computed for another layout', reordered],
  ])('holds, for every taxonomy value, exactly the ranks SQL finds (%s)', async (_name, layout) => {
    const { version, pairs } = await rankTagCodes(database.pool, layout);
    const state = await readCorpusState(database.pool);
    const index = TaxonomyIndex.fromPairs(version, pairs, layout);
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
