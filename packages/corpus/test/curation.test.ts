import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { taxonomy } from '@quotes/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authorKey,
  eraOfLife,
  eraOfYear,
  knownAuthorEra,
  knownAuthorTable,
  readAuthorsFile,
} from '../src/import/authorEras.js';
import { createLanguageDetector, languageCode } from '../src/import/detectLanguage.js';
import { inferMood } from '../src/import/inferMood.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'corpus-curation-'));
});

describe('eras of real authors', () => {
  it('maps years to eras by the boundaries in CORPUS.md, from the fortieth year or death', () => {
    expect([499, 500, 1499, 1500, 1799, 1800, 1944, 1945, 1999, 2000].map(eraOfYear)).toEqual([
      'Ancient',
      'Medieval',
      'Medieval',
      'Early Modern',
      'Early Modern',
      'Modern',
      'Modern',
      'Contemporary',
      'Contemporary',
      'Present',
    ]);
    expect(eraOfLife(-384, -322)).toBe('Ancient');
    expect(eraOfLife(1564, 1616)).toBe('Early Modern');
    expect(eraOfLife(1929, 1968)).toBe('Contemporary');
    // Keats died at 25: his work belongs to the years he had.
    expect(eraOfLife(1795, 1821)).toBe('Modern');
    expect(eraOfLife(1965, null)).toBe('Present');
  });

  it('knows the most quoted real people, across cultures and eras, by any usual spelling', () => {
    expect(knownAuthorTable.length).toBeGreaterThanOrEqual(2000);
    const cases: Array<[string, string]> = [
      ['Al-Maʿarri', 'Medieval'],
      ["al-Ma'arri", 'Medieval'],
      ['Thomas à Kempis', 'Medieval'],
      ['thomas a kempis', 'Medieval'],
      ['C.S. Lewis', 'Contemporary'],
      ['C. S. Lewis', 'Contemporary'],
      ['CS Lewis', 'Contemporary'],
      ['Martin Luther King, Jr.', 'Contemporary'],
      ['Martin Luther King Jr', 'Contemporary'],
      ['Dr. Martin Luther King', 'Contemporary'],
      ['St. Augustine', 'Ancient'],
      ['Saint Augustine of Hippo', 'Ancient'],
      ['José Saramago', 'Contemporary'],
      ['Jose Saramago', 'Contemporary'],
      ['Hunter S. Thompson', 'Contemporary'],
      ['George Carlin', 'Contemporary'],
      ['Søren Kierkegaard', 'Modern'],
      ['Lao-Tzu', 'Ancient'],
      ['Rumi', 'Medieval'],
      ['J.K. Rowling', 'Present'],
      ['Confucius', 'Ancient'],
      ['Rabindranath Tagore', 'Modern'],
      ['Chinua Achebe', 'Contemporary'],
    ];
    for (const [name, era] of cases) expect([name, knownAuthorEra(name)]).toEqual([name, era]);
    expect(knownAuthorEra('Kayla Fenwick')).toBeNull();
    expect(authorKey('J. R. R. Tolkien')).toBe(authorKey('JRR Tolkien'));
  });

  it('has one era per name: no spelling of one person is another person of another era', () => {
    const eraOfKey = new Map<string, { era: string; name: string }>();
    const clashes: string[] = [];
    for (const author of knownAuthorTable) {
      const era = author.era ?? eraOfLife(author.born!, author.died);
      expect(taxonomy.eras).toContain(era);
      for (const name of [author.name, ...(author.aliases ?? [])]) {
        const key = authorKey(name);
        const earlier = eraOfKey.get(key);
        if (earlier && earlier.era !== era) clashes.push(`${name} (${author.name}) vs ${earlier.name}`);
        eraOfKey.set(key, { era, name: author.name });
      }
    }
    expect(clashes).toEqual([]);
  });

  it('reads an operator author file with eras or years, and names a bad line', async () => {
    const file = join(directory, 'authors.csv');
    await writeFile(
      file,
      'author,era\nKayla Fenwick,Present\n"Quill, Dax",early modern\nOld Sage,384 BC,322 BC\nNew Voice,1990,\n',
    );
    const table = readAuthorsFile(file);
    expect(table.eraOf('Kayla Fenwick')).toBe('Present');
    expect(table.eraOf('quill dax')).toBe('Early Modern');
    expect(table.eraOf('Old Sage')).toBe('Ancient');
    expect(table.eraOf('New Voice')).toBe('Present');
    await writeFile(file, 'Kayla Fenwick,Jurassic\n');
    expect(() => readAuthorsFile(file)).toThrow(/line 1: unknown era 'Jurassic'/);
    await writeFile(file, 'Kayla Fenwick,1990,1980\n');
    expect(() => readAuthorsFile(file)).toThrow(/line 1: born and died must be years/);
    expect(() => readAuthorsFile(join(directory, 'absent.csv'))).toThrow(/cannot read the authors file .*ENOENT/);
  });
});

describe('language', () => {
  const detector = createLanguageDetector('eng');

  it('tells English from the languages collections mix in, long or short', () => {
    const english = [
      'Grief keeps its own calendar.',
      'Be yourself; everyone else is already taken.',
      'Carpe diem.',
      'To be, or not to be: that is the question.',
      'Experts agree that the years take our speed but leave our sense of direction.',
    ];
    for (const text of english) expect([text, detector.detect(text)]).toEqual([text, 'eng']);
    const other: Array<[string, string]> = [
      ['O amor é fogo que arde sem se ver, é ferida que dói e não se sente.', 'por'],
      ['Iubirea este singurul lucru care crește atunci când îl împarți cu alții.', 'ron'],
      ['Caminante, no hay camino, se hace camino al andar.', 'spa'],
      ['Le cœur a ses raisons que la raison ne connaît point.', 'fra'],
    ];
    for (const [text, language] of other) expect([text, detector.detect(text)]).toEqual([text, language]);
  });

  it('accepts a code or a name for --language, and keeps a corpus in that language', () => {
    expect(languageCode('Portuguese')).toBe('por');
    expect(languageCode('spa')).toBe('spa');
    expect(languageCode('klingon')).toBeNull();
    const spanish = createLanguageDetector('spa');
    expect(spanish.detect('Podrán cortar todas las flores, pero no podrán detener la primavera.')).toBe('spa');
    expect(spanish.detect('Be yourself; everyone else is already taken.')).toBe('eng');
  });
});

describe('moods from the text', () => {
  // Hand-labelled: one mood per quote, chosen by reading it (CORPUS.md describes the labels).
  type Labelled = { text: string; author: string; mood: string };
  let sample: Labelled[];
  beforeAll(async () => {
    sample = JSON.parse(await readFile(new URL('./fixtures/moodSample.json', import.meta.url), 'utf8')) as Labelled[];
  });

  it('has a labelled sample of at least 200 quotes covering every mood', () => {
    expect(sample.length).toBeGreaterThanOrEqual(200);
    for (const mood of taxonomy.moods) expect(sample.filter((quote) => quote.mood === mood).length).toBeGreaterThan(20);
  });

  it('agrees with the hand labels well above chance (floor in CORPUS.md)', () => {
    const first = sample.filter((quote) => inferMood(quote.text).moods[0] === quote.mood).length / sample.length;
    const any = sample.filter((quote) => inferMood(quote.text).moods.includes(quote.mood)).length / sample.length;
    // Measured 0.60 and 0.65; one of eight moods by chance is 0.125.
    expect(first).toBeGreaterThanOrEqual(0.55);
    expect(any).toBeGreaterThanOrEqual(0.6);
  });

  it('gives no single mood most of the sample, and explains itself', () => {
    const counts = new Map<string, number>();
    for (const quote of sample) {
      const mood = inferMood(quote.text).moods[0]!;
      counts.set(mood, (counts.get(mood) ?? 0) + 1);
    }
    expect(Math.max(...counts.values())).toBeLessThan(sample.length / 4);
    const explained = inferMood('Never give up on your dreams; success comes to those who persist.');
    expect(explained.moods[0]).toBe('inspirational');
    expect(explained.scores[0]![0]).toBe('inspirational');
    expect(inferMood('Hell is empty and all the devils are here.').moods[0]).toBe('dark');
    expect(inferMood('The government of a nation rests on its laws.').moods[0]).toBe('serious');
  });
});
