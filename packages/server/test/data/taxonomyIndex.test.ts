import { taxonomy } from '@quotes/contract';
import { seededRandom } from '@quotes/corpus';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaxonomyIndex, tagCodeLayout } from '../../src/data/catalog/taxonomyIndex.js';
import { type RawFilters, type ResolvedFilter, resolveFilters } from '@quotes/accounts/rules';

interface Tags {
  category: string;
  moods: string[];
  length: string;
  era: string;
  faith: string | null;
}

function pickFrom<T>(values: readonly T[], random: () => number): T {
  return values[Math.floor(random() * values.length)] as T;
}

/** What PostgreSQL sends (quoteQueries.ts rankTagCodes): (rank, code) as big-endian int32 pairs. */
function pairsOf(quotes: ReadonlyMap<number, Tags>): Buffer {
  const layout = tagCodeLayout();
  const buffer = Buffer.alloc(quotes.size * 8);
  let offset = 0;
  for (const [rank, tags] of quotes) {
    let code = 0;
    for (const field of layout.single) {
      const value = { category: tags.category, length: tags.length, era: tags.era, faith: tags.faith }[field.parameter];
      code |= (value === null ? 0 : field.values.indexOf(value) + 1) << field.shift;
    }
    for (const mood of tags.moods) code |= 1 << (layout.moodsShift + layout.moods.indexOf(mood));
    buffer.writeInt32BE(rank, offset);
    buffer.writeInt32BE(code, offset + 4);
    offset += 8;
  }
  return buffer;
}

function matches(tags: Tags, filter: ResolvedFilter): boolean {
  return (
    (filter.categories === null || filter.categories.includes(tags.category)) &&
    (filter.moods === null || tags.moods.some((mood) => filter.moods?.includes(mood))) &&
    (filter.length === null || tags.length === filter.length) &&
    (filter.era === null || tags.era === filter.era) &&
    (filter.faith === null || tags.faith === filter.faith)
  );
}

function resolved(raw: RawFilters): ResolvedFilter {
  const resolution = resolveFilters(raw);
  if (!resolution.ok) throw new Error(JSON.stringify(resolution.errors));
  return resolution.filter;
}

function corpus(size: number, seed: number): Map<number, Tags> {
  const random = seededRandom(seed);
  const quotes = new Map<number, Tags>();
  for (let rank = 0; rank < size; rank++) {
    const moods = [...new Set([pickFrom(taxonomy.moods, random), pickFrom(taxonomy.moods, random)])];
    quotes.set(rank, {
      category: pickFrom(taxonomy.categories, random),
      moods,
      length: pickFrom(taxonomy.lengths, random),
      era: pickFrom(taxonomy.eras, random),
      faith: random() < 0.3 ? pickFrom(taxonomy.faithTraditions, random) : null,
    });
  }
  return quotes;
}

describe('the taxonomy index', () => {
  const quotes = corpus(3_000, 5);
  const index = TaxonomyIndex.fromPairs(7, pairsOf(quotes));
  const expected = (filter: ResolvedFilter) =>
    [...quotes].filter(([, tags]) => matches(tags, filter)).map(([rank]) => rank);

  it('keeps the corpus version it was built from', () => {
    expect(index.version).toBe(7);
    expect(index.rankBound).toBe(3_000);
  });

  it('gives each taxonomy value exactly its quotes', () => {
    for (const category of taxonomy.categories)
      expect(index.matching(resolved({ category })).slice(0, 5_000)).toEqual(
        expected(resolved({ category })).filter((rank) => quotes.get(rank)?.category === category),
      );
    for (const faith of taxonomy.faithTraditions)
      expect(index.matching(resolved({ faith })).size).toBe(
        [...quotes.values()].filter((tags) => tags.faith === faith).length,
      );
    for (const mood of taxonomy.moods) {
      const filter = resolved({ mood: mood.toLowerCase() });
      expect(index.matching(filter).slice(0, 5_000)).toEqual(expected(filter));
    }
  });

  it('ORs within a parameter and ANDs across parameters, like the SQL it replaces', () => {
    const random = seededRandom(11);
    const texts: Record<keyof RawFilters, readonly string[]> = {
      category: ['a', 'e', 'love', 'parent', 'grief', 'ship', taxonomy.categories[0] as string],
      mood: ['e', 'ous', 'ing', taxonomy.moods[3] as string],
      length: taxonomy.lengths,
      era: taxonomy.eras,
      faith: taxonomy.faithTraditions,
    };
    for (let trial = 0; trial < 300; trial++) {
      const raw: RawFilters = {};
      for (const name of Object.keys(texts) as Array<keyof RawFilters>)
        if (random() < 0.45) raw[name] = pickFrom(texts[name], random);
      const filter = resolved(raw);
      const ranks = expected(filter);
      // Owned, and transient (in the index's reused buffers, read at once): the same members.
      for (const set of [index.matching(filter), index.matching(filter, { transient: true })]) {
        expect(set.size, JSON.stringify(raw)).toBe(ranks.length);
        expect(set.slice(0, 5_000)).toEqual(ranks);
        if (ranks.length > 0) expect(set.select(ranks.length - 1)).toBe(ranks[ranks.length - 1]);
      }
    }
  });

  it('keeps owned sets intact while later matches reuse the buffers', () => {
    const love = resolved({ category: 'love', era: taxonomy.eras[2] as string });
    const owned = index.matching(love);
    const members = owned.slice(0, 5_000);
    index.matching(resolved({ mood: 'e', length: taxonomy.lengths[0] as string }), { transient: true });
    index.matching(resolved({ category: 'a', mood: 'ing' }), { transient: true });
    // Kept sets are combined in the same reused buffers before they copy out what they keep.
    const other = index.matching(resolved({ category: 'e', mood: 'ous' }));
    expect(owned.slice(0, 5_000)).toEqual(members);
    expect(other.slice(0, 5_000)).toEqual(expected(resolved({ category: 'e', mood: 'ous' })));
    expect(members).toEqual(expected(love));
  });

  it('answers an empty set when a combination matches nothing', () => {
    const lonely = new Map<number, Tags>([
      [0, { category: 'Love & Romance', moods: ['uplifting'], length: 'Short', era: 'Ancient', faith: null }],
      [1, { category: 'Grief & Loss', moods: ['reflective'], length: 'Long', era: 'Modern', faith: 'Buddhist' }],
    ]);
    const small = TaxonomyIndex.fromPairs(1, pairsOf(lonely));
    const none = small.matching(resolved({ category: 'love', era: 'Modern' }));
    expect(none.size).toBe(0);
    expect(none.select(0)).toBeUndefined();
    expect(none.slice(0, 10)).toEqual([]);
    expect(small.matching(resolved({ faith: 'Buddhist' })).slice(0, 10)).toEqual([1]);
    expect(small.matching(resolved({})).size).toBe(2);
  });

  it('leaves ranks missing from the corpus out of every set', () => {
    const sparse = new Map([...corpus(40, 3)].filter(([rank]) => rank % 3 !== 0));
    const index = TaxonomyIndex.fromPairs(2, pairsOf(sparse));
    expect(index.matching(resolved({})).slice(0, 100)).toEqual([...sparse.keys()]);
  });

  it('builds from an empty corpus', () => {
    const empty = TaxonomyIndex.fromPairs(3, Buffer.alloc(0));
    expect(empty.matching(resolved({ category: 'love', mood: 'up' })).size).toBe(0);
    expect(empty.byteLength).toBe(0);
  });

  it('matches from the category pair lists exactly what the bitsets alone match, across chunks of 65,536 ranks', () => {
    // Ranks spread over four chunks, clustered at their edges; a few quotes share one category so
    // its pairs are dense enough to fall back to the bitsets.
    const spread = new Map<number, Tags>();
    const random = seededRandom(17);
    for (const [at, tags] of corpus(4_000, 19)) {
      const rank = at < 2_000 ? Math.floor(random() * 262_144) : 65_536 * (1 + (at % 3)) - 40 + (at % 80);
      spread.set(rank, at % 5 === 0 ? { ...tags, category: taxonomy.categories[0] as string } : tags);
    }
    const paired = TaxonomyIndex.fromPairs(4, pairsOf(spread));
    const bare = TaxonomyIndex.fromPairs(4, pairsOf(spread), tagCodeLayout(), { pairLists: false });
    expect(paired.byteLength).toBeGreaterThan(bare.byteLength);
    const oneOf = <T>(values: readonly T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
    fc.assert(
      fc.property(
        fc.record({
          category: oneOf([...taxonomy.categories, 'love', 'parent', 'e']),
          mood: oneOf([...taxonomy.moods, 'e', 'ing']),
          length: oneOf(taxonomy.lengths),
          era: oneOf(taxonomy.eras),
          faith: oneOf(taxonomy.faithTraditions),
        }),
        fc.boolean(),
        fc.nat(),
        (raw, transient, at) => {
          const filter = resolved(
            Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined)) as RawFilters,
          );
          const want = bare.matching(filter).slice(0, 10_000);
          const got = paired.matching(filter, { transient });
          expect(got.size).toBe(want.length);
          expect(got.slice(0, 10_000)).toEqual(want);
          const k = want.length === 0 ? 0 : at % want.length;
          expect(got.select(k)).toBe(want[k]);
          if (want.length > 0) expect(got.has(want[k] as number)).toBe(true);
          expect(got.has((want[k] ?? 0) + 1)).toBe(want.includes((want[k] ?? 0) + 1));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('refuses a taxonomy that no longer fits one tag code', () => {
    const wide = { ...taxonomy, moods: Array.from({ length: 20 }, (_, index) => `Mood ${index}`) };
    expect(() => tagCodeLayout(wide)).toThrow(/no longer fits/);
  });
});
