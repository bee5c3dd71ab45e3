import { lengthOfText, taxonomy } from '@quotes/contract';
import { describe, expect, it } from 'vitest';
import {
  type CorpusRow,
  defaultCorpusSeed,
  defaultCorpusSize,
  generateCorpus,
  normaliseForIdentity,
  problemWithRow,
  quoteId,
} from '../src/index.js';
import { AuthorRoster } from '../src/generator/authorRoster.js';
import { authorCultures } from '../src/generator/data/authorCultures.js';
import { preparedData } from '../src/generator/preparedBanks.js';
import { knownAuthorEra } from '../src/import/mapRecord.js';

const seed = 20261123;
const sampleSize = 20_000;
const sample: CorpusRow[] = [...generateCorpus({ size: sampleSize, seed })];

function countBy<T>(rows: readonly T[], key: (row: T) => string | readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const keys = key(row);
    for (const value of typeof keys === 'string' ? [keys] : keys) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
}

describe('generateCorpus: determinism', () => {
  it('gives the same corpus, and so the same ids, for the same seed', () => {
    const again = [...generateCorpus({ size: 3000, seed })];
    expect(again).toEqual(sample.slice(0, 3000));
    expect(again.map((row) => quoteId(row.text, row.author))).toEqual(
      sample.slice(0, 3000).map((row) => quoteId(row.text, row.author)),
    );
  });

  it('gives a different corpus for a different seed', () => {
    const other = [...generateCorpus({ size: 500, seed: seed + 1 })];
    const texts = new Set(sample.slice(0, 500).map((row) => row.text));
    expect(other.filter((row) => texts.has(row.text)).length).toBeLessThan(25);
  });

  it('streams: the first quotes of a larger corpus are the quotes of a smaller one', () => {
    const iterator = generateCorpus({ size: 10_000_000, seed });
    const first = Array.from({ length: 200 }, () => iterator.next().value as CorpusRow);
    expect(first).toEqual(sample.slice(0, 200));
  });
});

describe('generateCorpus: values come from the contract', () => {
  it('uses only taxonomy values, and every row passes the loader validation', () => {
    for (const row of sample) {
      expect(taxonomy.categories).toContain(row.category);
      if (row.secondary_category !== null) expect(taxonomy.categories).toContain(row.secondary_category);
      for (const mood of row.moods) expect(taxonomy.moods).toContain(mood);
      expect(taxonomy.eras).toContain(row.era);
      if (row.faith_tradition !== null) expect(taxonomy.faithTraditions).toContain(row.faith_tradition);
      expect(problemWithRow(row)).toBeNull();
    }
  });

  it('has a phrase bank for exactly the contract categories, and shapes for exactly its moods', () => {
    const data = preparedData();
    expect([...data.categories.keys()].sort()).toEqual([...taxonomy.categories].sort());
    expect([...data.shapes.keys()].sort()).toEqual([...taxonomy.moods].sort());
    expect([...data.faiths.keys()].sort()).toEqual([...taxonomy.faithTraditions].sort());
  });

  it('represents every category, mood, era, length and faith tradition', () => {
    expect([...countBy(sample, (row) => row.category).keys()].sort()).toEqual([...taxonomy.categories].sort());
    expect([...countBy(sample, (row) => row.moods).keys()].sort()).toEqual([...taxonomy.moods].sort());
    expect([...countBy(sample, (row) => row.era).keys()].sort()).toEqual([...taxonomy.eras].sort());
    expect([...countBy(sample, (row) => lengthOfText(row.text)).keys()].sort()).toEqual([...taxonomy.lengths].sort());
    const faiths = countBy(
      sample.filter((row) => row.faith_tradition !== null),
      (row) => row.faith_tradition!,
    );
    expect([...faiths.keys()].sort()).toEqual([...taxonomy.faithTraditions].sort());
    for (const count of faiths.values()) expect(count).toBeGreaterThan(sampleSize * 0.005);
  });
});

describe('generateCorpus: distribution', () => {
  it('gives every category its share (at least 1,000 per 150,000, scaled)', () => {
    const minimum = (sampleSize * 1000) / 150_000;
    for (const count of countBy(sample, (row) => row.category).values()) expect(count).toBeGreaterThan(minimum);
  });

  it('gives one to three distinct moods', () => {
    for (const row of sample) {
      expect(row.moods.length).toBeGreaterThanOrEqual(1);
      expect(row.moods.length).toBeLessThanOrEqual(3);
      expect(new Set(row.moods).size).toBe(row.moods.length);
    }
    const counts = countBy(sample, (row) => String(row.moods.length));
    expect(counts.get('1')! / sampleSize).toBeGreaterThan(0.2);
    expect(counts.get('2')! / sampleSize).toBeGreaterThan(0.2);
    expect(counts.get('3')).toBeGreaterThan(0);
  });

  it('gives most quotes a secondary category, never the primary one', () => {
    const withSecondary = sample.filter((row) => row.secondary_category !== null);
    expect(withSecondary.length / sampleSize).toBeGreaterThan(0.75);
    for (const row of withSecondary) expect(row.secondary_category).not.toBe(row.category);
  });

  it('writes Short, Medium and Long quotes in good numbers', () => {
    const lengths = countBy(sample, (row) => lengthOfText(row.text));
    for (const length of taxonomy.lengths) expect(lengths.get(length)! / sampleSize).toBeGreaterThan(0.1);
    expect(sample.some((row) => [...row.text].length > 300)).toBe(true);
  });

  it('puts faith traditions where they fit and nowhere else', () => {
    const share = (category: string) => {
      const rows = sample.filter((row) => row.category === category);
      return rows.filter((row) => row.faith_tradition !== null).length / rows.length;
    };
    expect(share('Spirituality & Faith')).toBeGreaterThan(0.8);
    expect(share('Forgiveness & Letting Go')).toBeGreaterThan(0.3);
    expect(share('Humor & Wit')).toBe(0);
    const overall = sample.filter((row) => row.faith_tradition !== null).length / sampleSize;
    expect(overall).toBeGreaterThan(0.08);
    expect(overall).toBeLessThan(0.25);
    // Faith sentences are never jokes.
    expect(sample.filter((row) => row.faith_tradition !== null && row.moods[0] === 'humorous')).toEqual([]);
  });

  it('scores on 0-100 with a skewed spread', () => {
    const scores = sample.map((row) => row.score).sort((a, b) => a - b);
    const at = (quantile: number) => scores[Math.floor(quantile * (scores.length - 1))]!;
    expect(scores[0]).toBeGreaterThan(0);
    expect(scores.at(-1)).toBeLessThanOrEqual(100);
    expect(at(0.5)).toBeGreaterThan(8);
    expect(at(0.5)).toBeLessThan(40);
    expect(at(0.9)).toBeGreaterThan(2 * at(0.5));
    expect(new Set(scores).size).toBeGreaterThan(500);
  });
});

describe('generateCorpus: realism', () => {
  it('writes unique texts (after normalising case, spacing and punctuation)', () => {
    expect(new Set(sample.map((row) => normaliseForIdentity(row.text))).size).toBe(sampleSize);
  });

  it('writes sentences that start with a capital and end with a stop', () => {
    for (const row of sample) {
      expect(row.text).toMatch(/^[A-Z\u00C0-\u024F]/u);
      expect(row.text).toMatch(/[.?!]$/);
      expect(row.text).not.toMatch(/\{|\}|\s{2}|\s[.,;:?!]|[.?!] [a-z]/);
      for (const sentence of row.text.split(/(?<=[.?!]) /))
        expect(sentence.split(';').length, sentence).toBeLessThanOrEqual(2);
    }
  });

  it('speaks of its category: every quote uses its own category\u2019s phrases', () => {
    const data = preparedData();
    for (const row of sample) {
      const group = ['Ancient', 'Medieval', 'Early Modern'].includes(row.era) ? 'old' : 'new';
      const lists = data.categories.get(row.category)!.phrases[group];
      const phrases = [
        lists.subject,
        lists.metaphor,
        lists.truth,
        lists.shadow,
        lists.image,
        lists.people,
        lists.advice,
        lists.quip,
        ...Object.values(lists.forms),
      ].flat();
      const text = row.text.toLowerCase();
      expect(
        phrases.some((phrase) => text.includes(phrase.toLowerCase())),
        `${row.category}: ${row.text}`,
      ).toBe(true);
    }
  });

  it('keeps humorous quotes light: no dark phrases in a quote whose main mood is humorous', () => {
    const data = preparedData();
    const light = sample.filter((quote) => quote.moods[0] === 'humorous' && !quote.moods.includes('dark'));
    // The sample holds such quotes: a loop over none would prove nothing.
    expect(light.length).toBeGreaterThan(sampleSize / 100);
    for (const row of light) {
      const shadows = data.categories
        .get(row.category)!
        .bank.shadows.map((shadow) => shadow.replace(/^[~^]/, '').toLowerCase());
      expect(
        shadows.some((shadow) => row.text.toLowerCase().includes(shadow)),
        row.text,
      ).toBe(false);
    }
  });

  it('gives each author one era, from that era\u2019s name pools, and never a real person\u2019s name', () => {
    const roster = new Map(new AuthorRoster(seed).all().map((author) => [author.name, author]));
    const eras = new Map<string, Set<string>>();
    for (const row of sample) {
      const author = roster.get(row.author);
      expect(author, row.author).toBeDefined();
      expect(author!.era).toBe(row.era);
      eras.set(row.author, (eras.get(row.author) ?? new Set()).add(row.era));
      expect(knownAuthorEra(row.author)).toBeNull();
    }
    for (const authorEras of eras.values()) expect(authorEras.size).toBe(1);
    // Many authors, a few of them much quoted, as in real collections.
    const perAuthor = [...countBy(sample, (row) => row.author).values()].sort((a, b) => b - a);
    expect(perAuthor.length).toBeGreaterThan(sampleSize / 10);
    expect(perAuthor[0]).toBeGreaterThan(5 * perAuthor[Math.floor(perAuthor.length / 2)]!);
  });

  it('has faith quotes written by authors of a culture that writes from that tradition', () => {
    const roster = new Map(new AuthorRoster(seed).all().map((author) => [author.name, author]));
    const faithful = sample.filter((quote) => quote.faith_tradition !== null);
    expect(faithful.length).toBeGreaterThan(sampleSize / 100);
    for (const row of faithful) {
      const culture = authorCultures[roster.get(row.author)!.culture]!;
      expect(culture.faiths?.[row.faith_tradition!] ?? 0, `${row.author}: ${row.faith_tradition}`).toBeGreaterThan(0);
    }
  });

  it('matches old-era shapes to old eras: no phones or trains before the Modern era', () => {
    const old = sample.filter((row) => ['Ancient', 'Medieval', 'Early Modern'].includes(row.era));
    for (const row of old)
      expect(row.text).not.toMatch(
        /\b(phones?|e-?mails?|laptops?|trains|slow train|train window|airports?|passports?|photographs?|fridges?|computers?)\b/i,
      );
  });
});

describe('generateCorpus: the default corpus', () => {
  const [size, defaultSeed] = [defaultCorpusSize, defaultCorpusSeed];

  it('has more than 150,000 quotes by default, at least 1,000 in every category, all unique', {
    timeout: 90_000,
  }, () => {
    expect(size).toBeGreaterThan(150_000);
    const counts = new Map<string, number>();
    const seen = new Set<string>();
    for (const row of generateCorpus({ size, seed: defaultSeed })) {
      counts.set(row.category, (counts.get(row.category) ?? 0) + 1);
      seen.add(quoteId(row.text, row.author));
    }
    expect(seen.size).toBe(size);
    expect(counts.size).toBe(taxonomy.categories.length);
    for (const [category, count] of counts) expect(count, category).toBeGreaterThanOrEqual(1000);
  });

  it('agrees in era, faith and imagery: nothing Christian before the Common Era, no "thou" today', {
    timeout: 90_000,
  }, () => {
    // The generator's own rules (data/eraImagery.ts) are not used here: these are written apart, so
    // a rule dropped from the generator fails this test.
    const christian = /\b(christ|jesus|gospel|church|cathedral|easter|christmas|baptism|saints?|resurrection)\b/i;
    const islamic = /\b(allah|quran|koran|mosque|ramadan|mecca)\b/i;
    const archaic = /\b(thee|thou|thy|thine|hath|doth|'tis|unto|shalt)\b/i;
    const machines =
      /\b(phones?|e-?mails?|internet|computers?|cars?|trains?|airports?|planes?|radio|television|guns?|factory|factories|newspapers?)\b/i;
    const roster = new Map(new AuthorRoster(defaultSeed).all().map((author) => [author.name, author]));
    const broken: string[] = [];
    let ancientChristian = 0;
    for (const row of generateCorpus({ size, seed: defaultSeed })) {
      const culture = roster.get(row.author)!.culture;
      const commonEra = culture === 'desertFathers';
      if (row.era === 'Ancient') {
        if (row.faith_tradition === 'Christian') ancientChristian++;
        if (!commonEra && (row.faith_tradition === 'Christian' || christian.test(row.text)))
          broken.push(`Christian before the Common Era: ${row.author} (${culture}): ${row.text}`);
        if (row.faith_tradition === 'Islamic' || islamic.test(row.text))
          broken.push(`Islamic in antiquity: ${row.text}`);
      }
      if (['Ancient', 'Medieval', 'Early Modern'].includes(row.era) && machines.test(row.text))
        broken.push(`machines in the ${row.era} era: ${row.text}`);
      if (['Modern', 'Contemporary', 'Present'].includes(row.era) && archaic.test(row.text))
        broken.push(`old diction in the ${row.era} era: ${row.text}`);
    }
    expect(broken.slice(0, 5)).toEqual([]);
    // Late-antique Christians (the Desert Fathers) are still there: the rule is about dates, not faith.
    expect(ancientChristian).toBeGreaterThan(0);
  });
});
