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

/**
 * The rows of `rows` that `problem` finds fault with, each as its problem: one comparison for the
 * whole sample where an expect per row would spend most of the file's time in the matcher.
 */
function faults<T>(rows: readonly T[], problem: (row: T) => string | undefined): string[] {
  return rows.flatMap((row) => {
    const found = problem(row);
    return found === undefined ? [] : [found];
  });
}

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
    const categories = new Set<string>(taxonomy.categories);
    const moods = new Set<string>(taxonomy.moods);
    const eras = new Set<string>(taxonomy.eras);
    const faiths = new Set<string>(taxonomy.faithTraditions);
    expect(
      faults(sample, (row) => {
        if (!categories.has(row.category)) return `category ${row.category}`;
        if (row.secondary_category !== null && !categories.has(row.secondary_category))
          return `secondary category ${row.secondary_category}`;
        const mood = row.moods.find((candidate) => !moods.has(candidate));
        if (mood !== undefined) return `mood ${mood}`;
        if (!eras.has(row.era)) return `era ${row.era}`;
        if (row.faith_tradition !== null && !faiths.has(row.faith_tradition)) return `faith ${row.faith_tradition}`;
        const problem = problemWithRow(row);
        return problem === null ? undefined : `${problem}: ${row.text}`;
      }),
    ).toEqual([]);
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
    expect(
      faults(sample, (row) =>
        row.moods.length >= 1 && row.moods.length <= 3 && new Set(row.moods).size === row.moods.length
          ? undefined
          : `${row.moods.join(',')}: ${row.text}`,
      ),
    ).toEqual([]);
    const counts = countBy(sample, (row) => String(row.moods.length));
    expect(counts.get('1')! / sampleSize).toBeGreaterThan(0.2);
    expect(counts.get('2')! / sampleSize).toBeGreaterThan(0.2);
    expect(counts.get('3')).toBeGreaterThan(0);
  });

  it('gives most quotes a secondary category, never the primary one', () => {
    const withSecondary = sample.filter((row) => row.secondary_category !== null);
    expect(withSecondary.length / sampleSize).toBeGreaterThan(0.75);
    expect(faults(withSecondary, (row) => (row.secondary_category === row.category ? row.text : undefined))).toEqual(
      [],
    );
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
    expect(
      faults(sample, ({ text }) => {
        if (!/^[A-Z\u00C0-\u024F]/u.test(text)) return `no capital first: ${text}`;
        if (!/[.?!]$/.test(text)) return `no stop last: ${text}`;
        if (/\{|\}|\s{2}|\s[.,;:?!]|[.?!] [a-z]/.test(text)) return `a brace, a double space or a loose stop: ${text}`;
        const sentence = text.split(/(?<=[.?!]) /).find((candidate) => candidate.split(';').length > 2);
        return sentence === undefined ? undefined : `more than one semicolon: ${sentence}`;
      }),
    ).toEqual([]);
  });

  it('speaks of its category: every quote uses its own category\u2019s phrases', () => {
    const data = preparedData();
    const unspoken = faults(sample, (row) => {
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
      return phrases.some((phrase) => text.includes(phrase.toLowerCase())) ? undefined : `${row.category}: ${row.text}`;
    });
    expect(unspoken).toEqual([]);
  });

  it('keeps humorous quotes light: no dark phrases in a quote whose main mood is humorous', () => {
    const data = preparedData();
    const light = sample.filter((quote) => quote.moods[0] === 'humorous' && !quote.moods.includes('dark'));
    // The sample holds such quotes: a loop over none would prove nothing.
    expect(light.length).toBeGreaterThan(sampleSize / 100);
    expect(
      faults(light, (row) => {
        const shadows = data.categories
          .get(row.category)!
          .bank.shadows.map((shadow) => shadow.replace(/^[~^]/, '').toLowerCase());
        return shadows.some((shadow) => row.text.toLowerCase().includes(shadow)) ? row.text : undefined;
      }),
    ).toEqual([]);
  });

  it('gives each author one era, from that era\u2019s name pools, and never a real person\u2019s name', () => {
    const roster = new Map(new AuthorRoster(seed).all().map((author) => [author.name, author]));
    const eras = new Map<string, Set<string>>();
    expect(
      faults(sample, (row) => {
        const author = roster.get(row.author);
        eras.set(row.author, (eras.get(row.author) ?? new Set()).add(row.era));
        if (author === undefined) return `${row.author} is in no roster`;
        if (author.era !== row.era) return `${row.author} of the ${author.era} era wrote in the ${row.era} era`;
        return knownAuthorEra(row.author) === null ? undefined : `${row.author} is a real person`;
      }),
    ).toEqual([]);
    expect([...eras].filter(([, authorEras]) => authorEras.size !== 1).map(([author]) => author)).toEqual([]);
    // Many authors, a few of them much quoted, as in real collections.
    const perAuthor = [...countBy(sample, (row) => row.author).values()].sort((a, b) => b - a);
    expect(perAuthor.length).toBeGreaterThan(sampleSize / 10);
    expect(perAuthor[0]).toBeGreaterThan(5 * perAuthor[Math.floor(perAuthor.length / 2)]!);
  });

  it('has faith quotes written by authors of a culture that writes from that tradition', () => {
    const roster = new Map(new AuthorRoster(seed).all().map((author) => [author.name, author]));
    const faithful = sample.filter((quote) => quote.faith_tradition !== null);
    expect(faithful.length).toBeGreaterThan(sampleSize / 100);
    expect(
      faults(faithful, (row) => {
        const culture = authorCultures[roster.get(row.author)!.culture]!;
        return (culture.faiths?.[row.faith_tradition!] ?? 0) > 0 ? undefined : `${row.author}: ${row.faith_tradition}`;
      }),
    ).toEqual([]);
  });

  it('matches old-era shapes to old eras: no phones or trains before the Modern era', () => {
    const old = sample.filter((row) => ['Ancient', 'Medieval', 'Early Modern'].includes(row.era));
    const modern =
      /\b(phones?|e-?mails?|laptops?|trains|slow train|train window|airports?|passports?|photographs?|fridges?|computers?)\b/i;
    expect(faults(old, (row) => (modern.test(row.text) ? row.text : undefined))).toEqual([]);
  });
});

/** What the two tests of the default corpus read of it, from one walk of its 152,000 quotes. */
interface DefaultCorpusWalk {
  size: number;
  perCategory: Map<string, number>;
  distinctIds: number;
  broken: string[];
  ancientChristian: number;
}

let defaultCorpusWalk: DefaultCorpusWalk | undefined;

/**
 * Walks the default corpus once for both its tests, whichever runs first: the walk, not the checks,
 * is the cost (two walks were most of this file's time).
 */
function walkDefaultCorpus(): DefaultCorpusWalk {
  if (defaultCorpusWalk) return defaultCorpusWalk;
  const [size, seed] = [defaultCorpusSize, defaultCorpusSeed];
  // The generator's own rules (data/eraImagery.ts) are not used here: these are written apart, so
  // a rule dropped from the generator fails the imagery test.
  const christian = /\b(christ|jesus|gospel|church|cathedral|easter|christmas|baptism|saints?|resurrection)\b/i;
  const islamic = /\b(allah|quran|koran|mosque|ramadan|mecca)\b/i;
  const archaic = /\b(thee|thou|thy|thine|hath|doth|'tis|unto|shalt)\b/i;
  const machines =
    /\b(phones?|e-?mails?|internet|computers?|cars?|trains?|airports?|planes?|radio|television|guns?|factory|factories|newspapers?)\b/i;
  const roster = new Map(new AuthorRoster(seed).all().map((author) => [author.name, author]));
  const perCategory = new Map<string, number>();
  const seen = new Set<string>();
  const broken: string[] = [];
  let ancientChristian = 0;
  for (const row of generateCorpus({ size, seed })) {
    perCategory.set(row.category, (perCategory.get(row.category) ?? 0) + 1);
    seen.add(quoteId(row.text, row.author));
    const culture = roster.get(row.author)!.culture;
    const commonEra = culture === 'desertFathers';
    if (row.era === 'Ancient') {
      if (row.faith_tradition === 'Christian') ancientChristian++;
      if (!commonEra && (row.faith_tradition === 'Christian' || christian.test(row.text)))
        broken.push(`Christian before the Common Era: ${row.author} (${culture}): ${row.text}`);
      if (row.faith_tradition === 'Islamic' || islamic.test(row.text)) broken.push(`Islamic in antiquity: ${row.text}`);
    }
    if (['Ancient', 'Medieval', 'Early Modern'].includes(row.era) && machines.test(row.text))
      broken.push(`machines in the ${row.era} era: ${row.text}`);
    if (['Modern', 'Contemporary', 'Present'].includes(row.era) && archaic.test(row.text))
      broken.push(`old diction in the ${row.era} era: ${row.text}`);
  }
  defaultCorpusWalk = { size, perCategory, distinctIds: seen.size, broken, ancientChristian };
  return defaultCorpusWalk;
}

describe('generateCorpus: the default corpus', () => {
  // The first of these tests walks the corpus for both: the time the two walks had.
  it('has more than 150,000 quotes by default, at least 1,000 in every category, all unique', {
    timeout: 180_000,
  }, () => {
    const walk = walkDefaultCorpus();
    expect(walk.size).toBeGreaterThan(150_000);
    expect(walk.distinctIds).toBe(walk.size);
    expect(walk.perCategory.size).toBe(taxonomy.categories.length);
    for (const [category, count] of walk.perCategory) expect(count, category).toBeGreaterThanOrEqual(1000);
  });

  it('agrees in era, faith and imagery: nothing Christian before the Common Era, no "thou" today', {
    timeout: 90_000,
  }, () => {
    const walk = walkDefaultCorpus();
    expect(walk.broken.slice(0, 5)).toEqual([]);
    // Late-antique Christians (the Desert Fathers) are still there: the rule is about dates, not faith.
    expect(walk.ancientChristian).toBeGreaterThan(0);
  });
});
