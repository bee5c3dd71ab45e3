import { fileURLToPath } from 'node:url';
import { stringify } from 'csv-stringify/sync';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusStats } from '../src/index.js';
import { importCorpusFile } from '../src/import/importCorpus.js';
import { quoteId } from '../src/quoteId.js';
import type { TestDatabase } from '@quotes/database/testing';
import { databaseAndFolder } from './support/databaseAndFolder.js';
import { type CollectionCounts, writeGoodreadsStyleCollection } from './support/goodreadsStyleCollection.js';

let database: TestDatabase;
let directory: string;
beforeAll(async () => ({ database, directory } = await databaseAndFolder('corpus-messy-')));
afterAll(() => database?.drop());

describe('a 30,000-row Goodreads-style collection with no eras', () => {
  let file: string;
  let counts: CollectionCounts;
  beforeAll(async () => {
    file = join(directory, 'goodreads.csv');
    counts = await writeGoodreadsStyleCollection(file, { rows: 30_000 });
  }, 120_000);

  it('imports nearly whole with --skip-invalid and nothing else: English only, no row lost for want of an era', async () => {
    const report = await importCorpusFile(database, file, { skipInvalid: true });
    expect(counts.english).toBeGreaterThan(27_000);
    expect(report.imported).toBeGreaterThanOrEqual(27_000);
    expect(report.imported).toBeGreaterThanOrEqual(0.9 * counts.english);
    expect(report.errors.filter((error) => error.includes('no era'))).toEqual([]);
    expect(report.invalid).toBe(counts.broken);

    // Every era came from somewhere the report names; the unknown authors are listed to curate next.
    expect(report.eraSources['known authors']).toBeGreaterThan(0.5 * report.imported);
    expect(report.eraSources.default).toBeGreaterThan(0);
    expect(report.defaultedAuthors.length).toBe(10);
    for (const { author } of report.defaultedAuthors) expect(author).not.toContain(',');

    // The foreign rows are left out and counted, not mixed in.
    const otherLanguage = Object.values(report.otherLanguages).reduce((sum, count) => sum + count, 0);
    expect(otherLanguage).toBeGreaterThanOrEqual(0.95 * counts.otherLanguage);
    expect(otherLanguage).toBeLessThanOrEqual(1.1 * counts.otherLanguage);
    expect(Object.keys(report.otherLanguages).sort()).toEqual(expect.arrayContaining(['fra', 'por', 'ron', 'spa']));

    // Moods: from the tags where they name one, else from the text; no mood carries the collection.
    expect(report.moodSources.text).toBeGreaterThan(0);
    expect(report.moodSources.tags).toBeGreaterThan(0);
    expect(Math.max(...Object.values(report.byMood))).toBeLessThan(0.3 * report.imported);

    const stats = await corpusStats(database);
    expect(stats.total).toBe(report.imported);
    expect(Math.max(...Object.values(stats.byMood))).toBeLessThan(0.5 * stats.total);
    const kempis = await database.db
      .selectFrom('quotes')
      .select(['author', 'era'])
      .where('author', 'in', ['Thomas à Kempis', 'Al-Maʿarri', 'José Saramago'])
      .execute();
    expect(new Map(kempis.map((quote) => [quote.author, quote.era]))).toEqual(
      new Map([
        ['Thomas à Kempis', 'Medieval'],
        ['Al-Maʿarri', 'Medieval'],
        ['José Saramago', 'Contemporary'],
      ]),
    );
  }, 120_000);
});

describe('the review file', () => {
  it('lists the guessed rows; corrected and re-imported with --mode append they keep their ids', async () => {
    // Five quotes without eras, one text under two authors.
    const collection = fileURLToPath(new URL('./fixtures/reviewCollection.csv', import.meta.url));
    const review = join(directory, 'review.csv');
    const first = await importCorpusFile(database, collection, { reviewFile: review });
    expect(first.imported).toBe(5);
    expect(first.review).toEqual({ file: review, rows: 4 });
    const rows = parseCsv(await readFile(review), { columns: true }) as Array<Record<string, string>>;
    const byAuthor = new Map(rows.map((row) => [row.author, row]));
    expect(byAuthor.get('Ilse Marrowby')?.reasons).toBe('defaulted era; inferred mood');
    expect(byAuthor.get('Someone Else')?.reasons).toBe('defaulted era; inferred mood; near duplicate');
    expect(byAuthor.get('Someone Else')?.note).toBe(
      `same text as ${quoteId('The river keeps its appointments, and so should you.', 'Ilse Marrowby')}`,
    );
    expect(byAuthor.get('Tobias Quill')?.reasons).toBe('defaulted era; inferred mood; fallback category');
    expect(byAuthor.get('Odalys Fenwright')?.reasons).toBe('defaulted era');
    expect(byAuthor.has('Rumi')).toBe(false);

    const before = await database.db.selectFrom('quotes').select(['id', 'author']).orderBy('id').execute();
    // The operator corrects an era, a mood, a category, and the spelling of an author.
    for (const row of rows) {
      if (row.author === 'Ilse Marrowby') row.era = 'Modern';
      if (row.author === 'Odalys Fenwright') row.moods = 'poignant,reflective';
      if (row.author === 'Tobias Quill') row.category = 'Doubt & Uncertainty';
      if (row.author === 'Someone Else') row.author = 'Someone Else Entirely';
    }
    await writeFile(review, stringify(rows, { header: true, columns: Object.keys(rows[0]!) }));

    const second = await importCorpusFile(database, review, { mode: 'append' });
    expect(second).toMatchObject({ imported: 0, corrected: 4, total: 5 });
    const after = await database.db
      .selectFrom('quotes')
      .select(['id', 'author', 'era', 'moods', 'category'])
      .orderBy('id')
      .execute();
    expect(after.map((quote) => quote.id)).toEqual(before.map((quote) => quote.id));
    const corrected = new Map(after.map((quote) => [quote.author, quote]));
    expect(corrected.get('Ilse Marrowby')?.era).toBe('Modern');
    expect(corrected.get('Odalys Fenwright')?.moods).toEqual(['poignant', 'reflective']);
    expect(corrected.get('Tobias Quill')?.category).toBe('Doubt & Uncertainty');
    expect(corrected.get('Someone Else Entirely')?.id).toBe(
      quoteId('The river keeps its appointments, and so should you.', 'Someone Else'),
    );
    expect(corrected.get('Rumi')?.era).toBe('Medieval');
  });

  it('takes an --authors file before the built-in table and the default', async () => {
    const collection = join(directory, 'authors-test.csv');
    await writeFile(
      collection,
      'quote,author,tags\n"A lamp is lit by another lamp, and loses nothing.",Tobias Quill,light\n"Patience is a lamp that does not go out in the wind.",Rumi,patience\n',
    );
    const authors = join(directory, 'authors.csv');
    await writeFile(authors, 'author,born,died\nTobias Quill,1702,1771\n');
    const report = await importCorpusFile(database, collection, { authorsFile: authors, dryRun: true });
    expect(report.eraSources).toEqual({ row: 0, 'authors file': 1, 'known authors': 1, default: 0 });
    await expect(importCorpusFile(null, collection, { dryRun: true, language: 'klingon' })).rejects.toThrow(
      /unknown language 'klingon' for --language/,
    );
  });
});
