import { taxonomy } from '@quotes/contract';
import { describe, expect, it } from 'vitest';
import { tagMappingDefaults } from '../src/import/data/tagMapping.js';
import { cleanAuthor, cleanText, mapRecord, scoreFromLikes } from '../src/import/mapRecord.js';
import { mapTags, normaliseTag, splitTags, tagTable } from '../src/import/tagMapper.js';

describe('the tag mapping table', () => {
  it('maps only onto values of the contract taxonomy', () => {
    expect(tagTable.size).toBeGreaterThan(300);
    for (const meaning of tagTable.values()) {
      if (meaning.category) expect(taxonomy.categories).toContain(meaning.category.name);
      for (const mood of meaning.moods) expect(taxonomy.moods).toContain(mood);
      if (meaning.faith) expect(taxonomy.faithTraditions).toContain(meaning.faith);
    }
    expect(taxonomy.categories).toContain(tagMappingDefaults.fallbackCategory);
    expect(taxonomy.moods).toContain(tagMappingDefaults.defaultMood);
  });

  it('reaches every category, mood and faith tradition from some tag', () => {
    const meanings = [...tagTable.values()];
    for (const category of taxonomy.categories)
      expect(
        meanings.some((meaning) => meaning.category?.name === category),
        category,
      ).toBe(true);
    for (const mood of taxonomy.moods)
      expect(
        meanings.some((meaning) => meaning.moods.includes(mood)),
        mood,
      ).toBe(true);
    for (const faith of taxonomy.faithTraditions)
      expect(
        meanings.some((meaning) => meaning.faith === faith),
        faith,
      ).toBe(true);
  });
});

describe('mapTags', () => {
  it('reads the issue\u2019s example: inspirational, life, love, christianity', () => {
    expect(mapTags(splitTags('inspirational, life, love, christianity'))).toEqual({
      category: 'Love & Relationships',
      secondaryCategory: 'Life & Human Nature',
      moods: ['inspirational'],
      faith: 'Christian',
      unknown: [],
    });
  });

  it('normalises messy tags and lists the unknown ones', () => {
    expect(normaliseTag('  Love-Quotes ')).toBe('love');
    expect(normaliseTag('Life_Lessons')).toBe('life lessons');
    expect(normaliseTag('GRIEF!!')).toBe('grief');
    const mapped = mapTags(['Grief', 'quotes-about-cats', 'sadness', 'Judaism', 'xyzzy']);
    expect(mapped).toMatchObject({
      category: 'Grief & Loss',
      moods: ['poignant'],
      faith: 'Jewish',
      unknown: ['quotes about cats', 'xyzzy'],
    });
    expect(mapped.secondaryCategory).toBe('Spirituality & Faith');
  });

  it('prefers a specific topic over a broad one for the primary category', () => {
    expect(mapTags(['life', 'truth', 'courage'])).toMatchObject({
      category: 'Courage & Strength',
      secondaryCategory: 'Life & Human Nature',
    });
  });

  it('understands a few tags in other languages', () => {
    expect(mapTags(['amour', 'vie'])).toMatchObject({
      category: 'Love & Relationships',
      secondaryCategory: 'Life & Human Nature',
    });
    expect(mapTags(['amitié'])).toMatchObject({ category: 'Friendship & Loyalty' });
  });

  it('splits tag strings on commas, semicolons and pipes, and accepts arrays', () => {
    expect(splitTags('a, b;c | d,,')).toEqual(['a', 'b', 'c', 'd']);
    expect(splitTags(['hope', 'faith, god', 3])).toEqual(['hope', 'faith', 'god']);
  });
});

describe('mapRecord on a messy, realistic sample', () => {
  const map = (values: Record<string, unknown>, defaultEra?: string) => mapRecord(values, { defaultEra });

  it('keeps the name of "Name, Title of the Work" authors, and name suffixes', () => {
    expect(cleanAuthor('Oscar Wilde, The Picture of Dorian Gray')).toBe('Oscar Wilde');
    expect(cleanAuthor('― Ilse Marrowby,   Letters from the Fen')).toBe('Ilse Marrowby');
    expect(cleanAuthor('Sammy Quill, Jr., A Life in Ink')).toBe('Sammy Quill, Jr.');
    expect(cleanAuthor('Tobias   Ashgrove')).toBe('Tobias Ashgrove');
  });

  it('cleans texts: wrapping quotation marks, spaces, line breaks kept', () => {
    expect(cleanText('  \u201CA house is   not a home.\u201D ')).toBe('A house is not a home.');
    expect(cleanText('"He said "no" twice"')).toBe('"He said "no" twice"');
    expect(cleanText('Line one\r\nLine two')).toBe('Line one\nLine two');
  });

  it('maps a loosely tagged row, with era from the known-author table and score from likes', () => {
    const mapped = map({
      quote: '\u201CBe yourself; everyone else is already taken.\u201D',
      author: 'Oscar Wilde, The Collected Works',
      tags: ['humor', 'life', 'inspirational'],
      likes: 12345,
    });
    expect(mapped.problem).toBeUndefined();
    expect(mapped.row).toEqual({
      text: 'Be yourself; everyone else is already taken.',
      author: 'Oscar Wilde',
      category: 'Humor & Wit',
      secondary_category: 'Life & Human Nature',
      moods: ['humorous', 'inspirational'],
      era: 'Modern',
      faith_tradition: null,
      score: scoreFromLikes(12345),
    });
    expect(scoreFromLikes(0)).toBe(0);
    expect(scoreFromLikes(10 ** 9)).toBe(100);
  });

  it('maps a curated row, spelled loosely, and keeps non-ASCII text as is', () => {
    const mapped = map({
      Text: 'La vie est brève, et l\u2019été aussi. 日本語も。 \uD83C\uDF38',
      Author: 'Élodie Brun',
      Category: 'grief and loss',
      'Secondary Category': 'MEMORY & NOSTALGIA',
      Mood: 'poignant;reflective',
      Era: 'early-modern',
      Faith: 'none',
      score: '42.5',
    });
    expect(mapped.row).toMatchObject({
      category: 'Grief & Loss',
      secondary_category: 'Memory & Nostalgia',
      moods: ['poignant', 'reflective'],
      era: 'Early Modern',
      faith_tradition: null,
      score: 42.5,
    });
    expect(mapped.row?.text).toBe('La vie est brève, et l\u2019été aussi. 日本語も。 \uD83C\uDF38');
  });

  it('uses --default-era for unknown authors, the fallback category for unmapped tags, the default mood and score', () => {
    const mapped = map(
      {
        text: 'Nobody reads the footnotes, which is where it hides.',
        author: 'Odalys Fenwright',
        tags: 'quotes, favorites, xyzzy',
      },
      'Present',
    );
    expect(mapped.row).toMatchObject({
      category: tagMappingDefaults.fallbackCategory,
      moods: [tagMappingDefaults.defaultMood],
      era: 'Present',
      score: tagMappingDefaults.defaultScore,
    });
    expect(mapped.row !== undefined && mapped.usedFallbackCategory).toBe(true);
    expect(mapped.row !== undefined && mapped.unknownTags).toEqual(['favorites', 'xyzzy']);
    expect(mapped.row !== undefined && [mapped.eraSource, mapped.moodSource]).toEqual(['default', 'text']);
  });

  it('takes a category from the words of the text when no tag names one, and moods from the text', () => {
    const mapped = map({ text: 'Grief is the price we pay for love.', author: 'Odalys Fenwright' }, 'Present');
    expect(mapped.row).toMatchObject({ category: 'Grief & Loss', moods: ['poignant'] });
    expect(mapped.row !== undefined && mapped.usedFallbackCategory).toBe(true);
  });

  it('takes faith from tags or from a column, and drops a secondary equal to the primary', () => {
    expect(map({ text: 'Patience is a lamp.', author: 'Rumi', tags: 'patience, sufism' }).row).toMatchObject({
      era: 'Medieval',
      faith_tradition: 'Islamic',
      category: 'Silence & Stillness',
    });
    expect(
      map({
        text: 'Patience is a lamp.',
        author: 'X',
        category: 'Hope & Optimism',
        secondary_category: 'hope & optimism',
        mood: 'uplifting',
        era: 'Modern',
        faith_tradition: 'Buddhism',
      }).row,
    ).toMatchObject({ faith_tradition: 'Buddhist', secondary_category: null });
  });

  it('names each problem', () => {
    const problem = (values: Record<string, unknown>, defaultEra = 'Modern') => map(values, defaultEra).problem;
    const base = { text: 'A perfectly ordinary sentence.', author: 'A. Writer', category: 'Wisdom & Philosophy' };
    expect(problem({ ...base, text: '   ' })).toBe('empty text');
    expect(problem({ ...base, text: undefined })).toBe('empty text');
    expect(problem({ ...base, text: ['not', 'a', 'string'] })).toBe('text must be a string');
    expect(problem({ ...base, author: '' })).toBe('missing author');
    expect(problem({ ...base, author: ', The Book' })).toBe('missing author');
    expect(problem({ ...base, category: 'Cats' })).toBe("unknown category 'Cats'");
    expect(problem({ ...base, secondary_category: 'Dogs' })).toBe("unknown secondary category 'Dogs'");
    expect(problem({ ...base, mood: 'reflective, grumpy' })).toBe("unknown mood 'grumpy'");
    expect(problem({ ...base, era: 'Jurassic' })).toBe("unknown era 'Jurassic'");
    expect(problem({ ...base, faith_tradition: 'Pastafarian' })).toBe("unknown faith tradition 'Pastafarian'");
    expect(problem({ ...base, score: -3 })).toBe("score must be a number >= 0 (got '-3')");
    expect(problem({ ...base, likes: 'lots' })).toBe("likes must be a number >= 0 (got 'lots')");
    expect(problem({ ...base, text: 'ok' })).toBe('text is 2 characters (at least 3)');
    expect(problem({ ...base, text: 'x'.repeat(5001) })).toBe('text is 5001 characters (at most 5000)');
    expect(problem({ ...base, author: 'y'.repeat(301) })).toBe('author is longer than 300 characters');
    expect(map({ ...base, author: 'Unknown Person' }).problem).toBe(
      "no era for 'Unknown Person' (give an era, or --default-era)",
    );
  });
});
