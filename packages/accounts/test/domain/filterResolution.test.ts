import { taxonomy } from '@quotes/contract';
import { describe, expect, it } from 'vitest';
import { describeFilters, isUnfiltered, matchSetKey, resolveFilters } from '../../src/domain/filterResolution.js';

function resolved(raw: Parameters<typeof resolveFilters>[0]) {
  const result = resolveFilters(raw);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.filter;
}

describe('category and mood: case-insensitive substrings of the taxonomy', () => {
  it('matches part of a name, ignoring case', () => {
    expect(resolved({ category: 'grief' }).categories).toEqual(['Grief & Loss']);
    expect(resolved({ category: 'GRIEF & loss' }).categories).toEqual(['Grief & Loss']);
    expect(resolved({ mood: 'inspir' }).moods).toEqual(['inspirational']);
    expect(resolved({ mood: 'Dark' }).moods).toEqual(['dark']);
  });

  it('matches every category the text is part of (parent: both parenting categories)', () => {
    expect(resolved({ category: 'parent' }).categories).toEqual(['Family & Parenting', 'Parenting & Children']);
    expect(resolved({ mood: 'ing' }).moods).toEqual(['challenging', 'uplifting']);
  });

  it('takes + as a space, even when it arrived percent-encoded', () => {
    expect(resolved({ category: 'Hope+&+Optimism' }).categories).toEqual(['Hope & Optimism']);
    expect(resolved({ era: 'early+modern' }).era).toBe('Early Modern');
  });

  it('names category or mood text that matches nothing', () => {
    const result = resolveFilters({ category: 'zzz', mood: 'happyish' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((error) => error.parameter)).toEqual(['category', 'mood']);
  });
});

describe('length, era and faith: equal to a value, ignoring case', () => {
  it('accepts any case', () => {
    const filter = resolved({ length: 'LONG', era: 'early modern', faith: 'buddhist' });
    expect([filter.length, filter.era, filter.faith]).toEqual(['Long', 'Early Modern', 'Buddhist']);
  });

  it('rejects partial values, naming the allowed ones', () => {
    const result = resolveFilters({ era: 'Mod', length: 'tiny', faith: 'Bud' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { parameter: 'length', message: `must be one of ${taxonomy.lengths.join(', ')}` },
      { parameter: 'era', message: `must be one of ${taxonomy.eras.join(', ')}` },
      { parameter: 'faith', message: `must be one of ${taxonomy.faithTraditions.join(', ')}` },
    ]);
  });
});

describe('the resolved filter', () => {
  it('lists the filters given, each counting once', () => {
    expect(resolved({ faith: 'Jewish', category: 'love' }).given).toEqual(['category', 'faith']);
    expect(resolved({}).given).toEqual([]);
  });

  it('is unfiltered only without any filter', () => {
    expect(isUnfiltered(resolved({}))).toBe(true);
    expect(isUnfiltered(resolved({ length: 'short' }))).toBe(false);
  });

  it('shares a match-set key between spellings of the same filter', () => {
    expect(matchSetKey(resolved({ category: 'grief' }))).toBe(matchSetKey(resolved({ category: 'Grief & Loss' })));
    expect(matchSetKey(resolved({ category: 'grief' }))).not.toBe(matchSetKey(resolved({ category: 'love' })));
  });

  it('describes the filters as the caller gave them', () => {
    expect(describeFilters({ era: 'Ancient', category: 'sport' })).toBe('category=sport, era=Ancient');
  });
});
