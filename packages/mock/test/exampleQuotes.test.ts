import { readFileSync } from 'node:fs';
import { taxonomy } from '@quotes/contract';
import { defaultLimit, type ResolvedFilter } from '@quotes/server/data-free-checks';
import { describe, expect, it } from 'vitest';
import { exampleQuotesFile, exampleQuotesFileText, selectExampleQuotes } from '../scripts/generateExampleQuotes.js';
import { adaptedQuote, exampleQuotes, fits } from '../src/exampleQuotes.js';

const unfiltered: ResolvedFilter = { categories: null, moods: null, length: null, era: null, faith: null, given: [] };
const count = (filter: Partial<ResolvedFilter>) =>
  exampleQuotes.filter((quote) => fits(quote, { ...unfiltered, ...filter })).length;

describe("the mock's example quotes", () => {
  it('are what scripts/generateExampleQuotes.ts makes from the corpus generator (else: npm run examples -w @quotes/mock)', {
    timeout: 180_000,
  }, () => {
    expect(readFileSync(exampleQuotesFile, 'utf8')).toBe(exampleQuotesFileText(selectExampleQuotes()));
  });

  it('are tagged with the taxonomy only, with distinct ids', () => {
    expect(new Set(exampleQuotes.map((quote) => quote.id)).size).toBe(exampleQuotes.length);
    for (const quote of exampleQuotes) {
      expect(quote.id).toMatch(/^q_[A-Za-z0-9]+$/);
      expect(taxonomy.categories).toContain(quote.category);
      if (quote.secondary_category !== null) {
        expect(taxonomy.categories).toContain(quote.secondary_category);
        expect(quote.secondary_category).not.toBe(quote.category);
      }
      for (const mood of quote.mood.split(',')) expect(taxonomy.moods).toContain(mood);
      expect(taxonomy.eras).toContain(quote.era);
      if (quote.faith_tradition !== null) expect(taxonomy.faithTraditions).toContain(quote.faith_tradition);
    }
  });

  it('give two pages (at the default limit) of every category, mood, length, era and faith', () => {
    const pages = defaultLimit + 1;
    for (const category of taxonomy.categories)
      expect(count({ categories: [category] }), category).toBeGreaterThanOrEqual(pages);
    for (const mood of taxonomy.moods) expect(count({ moods: [mood] }), mood).toBeGreaterThanOrEqual(pages);
    for (const length of taxonomy.lengths) expect(count({ length }), length).toBeGreaterThanOrEqual(pages);
    for (const era of taxonomy.eras) expect(count({ era }), era).toBeGreaterThanOrEqual(pages);
    for (const faith of taxonomy.faithTraditions) expect(count({ faith }), faith).toBeGreaterThanOrEqual(pages);
  });

  it('give two pages of common combinations', () => {
    const pages = defaultLimit + 1;
    expect(count({ categories: ['Grief & Loss'], era: 'Ancient' })).toBeGreaterThanOrEqual(pages);
    expect(count({ era: 'Early Modern', length: 'Medium' })).toBeGreaterThanOrEqual(pages);
    expect(count({ faith: 'Taoist', moods: ['reflective'] })).toBeGreaterThanOrEqual(pages);
  });
});

describe('a quote adapted to a combination no example fits', () => {
  const combinations = [
    { categories: ['Love & Relationships'], moods: ['dark'], era: 'Present', length: 'Long', faith: 'Taoist' },
    {
      categories: ['Humor & Wit', 'Wit & Wordplay'],
      moods: ['humorous'],
      era: 'Ancient',
      length: 'Short',
      faith: 'Jewish',
    },
    { categories: ['Work & Purpose'], moods: ['challenging', 'dark'], era: 'Medieval', length: 'Medium', faith: null },
  ];

  it.each(combinations)('fits it, the same each time, under an id no example has (%o)', (combination) => {
    const filter = { ...unfiltered, ...combination };
    const adapted = adaptedQuote(filter);
    expect(fits(adapted, filter)).toBe(true);
    expect(adaptedQuote(filter)).toEqual(adapted);
    expect(adapted.id).toMatch(/^q_[A-Za-z0-9]+$/);
    expect(exampleQuotes.map((quote) => quote.id)).not.toContain(adapted.id);
    if (adapted.secondary_category !== null) expect(adapted.secondary_category).not.toBe(adapted.category);
  });
});
