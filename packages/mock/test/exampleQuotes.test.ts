import { taxonomy } from '@quotes/contract';
import { describe, expect, it } from 'vitest';
import { exampleQuotes } from '../src/exampleQuotes.js';

describe("the mock's example quotes", () => {
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

  it('cover every length, every faith tradition and several eras', () => {
    expect(new Set(exampleQuotes.map((quote) => quote.length))).toEqual(new Set(taxonomy.lengths));
    expect(new Set(exampleQuotes.flatMap((quote) => quote.faith_tradition ?? []))).toEqual(
      new Set(taxonomy.faithTraditions),
    );
    expect(new Set(exampleQuotes.map((quote) => quote.era)).size).toBeGreaterThanOrEqual(4);
  });
});
