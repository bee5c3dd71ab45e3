import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { corpusStats, generateCorpus, quoteId, replaceCorpus } from '../src/index.js';
import { importCorpusFile } from '../src/import/importCorpus.js';
import type { TestDatabase } from '@quotes/database/testing';
import { databaseAndFolder } from './support/databaseAndFolder.js';

let database: TestDatabase;
let directory: string;
beforeAll(async () => ({ database, directory } = await databaseAndFolder('corpus-import-')));
afterAll(() => database?.drop());

/** One JSON Lines record with the fields every import needs, and any others. */
const record = (text: string, author: string, category: string, era: string, more: Record<string, unknown> = {}) =>
  JSON.stringify({ text, author, category, era, ...more });

const jsonl = (...lines: Array<string | Buffer>) =>
  Buffer.concat(
    lines.map((line) => Buffer.concat([Buffer.isBuffer(line) ? line : Buffer.from(line), Buffer.from('\n')])),
  );

/** A collection as real exports look: duplicates, "Name, Book" authors, unknown tags, broken lines, non-ASCII. */
const messy = jsonl(
  JSON.stringify({
    quote: '\u201CBe yourself; everyone else is already taken.\u201D',
    author: 'Oscar Wilde, The Collected Works',
    tags: ['humor', 'life', 'inspirational'],
    likes: 12345,
  }),
  JSON.stringify({ text: 'be yourself \u2014 everyone else is already taken!', author: 'oscar  wilde', tags: 'humor' }),
  JSON.stringify({
    text: 'La vie est brève, et l\u2019été aussi. 人生は短い。',
    author: 'Élodie Brun',
    tags: 'vie, amour',
    era: 'Present',
  }),
  '{"text": "an unterminated line, "author": ',
  Buffer.from([0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  JSON.stringify({ text: '', author: 'Nobody' }),
  JSON.stringify({ text: 'A quote without an author.', tags: 'life' }),
  JSON.stringify({ text: 'Patience is a lamp that does not go out.', author: 'Rumi', tags: 'patience, sufism, xyzzy' }),
  '   ',
  JSON.stringify({
    text: 'The river keeps its appointments.',
    author: 'Ilse Marrowby',
    category: 'Nature & Environment',
    mood: 'reflective',
    era: 'Modern',
    score: 80,
  }),
  JSON.stringify({
    text: 'Grief is the rent we pay on rooms that once held laughter.',
    author: 'Odalys Fenwright',
    tags: ['grief', 'sadness'],
    era: 'Contemporary',
  }),
  JSON.stringify({ text: 'Cats rule the house.', author: 'X', category: 'Cats', era: 'Modern' }),
  '[1, 2, 3]',
);

async function seedCorpus(): Promise<number> {
  const report = await replaceCorpus(database, generateCorpus({ size: 300, seed: 5 }), {
    source: 'generated',
    seed: 5,
  });
  return report.version;
}

describe('importCorpusFile with JSON Lines', () => {
  let file: string;
  beforeAll(async () => {
    file = join(directory, 'messy.jsonl');
    await writeFile(file, messy);
  });
  let versionBefore: number;
  beforeEach(async () => {
    versionBefore = await seedCorpus();
  });

  it('fails on the first invalid row by default, names every bad line, and changes nothing', async () => {
    const error = await importCorpusFile(database, file).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(/^6 invalid rows in messy\.jsonl, nothing imported/);
    expect(message).not.toContain('\n');
    for (const expected of [
      'line 4: invalid JSON',
      'line 5: not valid UTF-8',
      'line 6: empty text',
      'line 7: missing author',
      "line 12: unknown category 'Cats'",
      'line 13: expected a JSON object',
    ]) {
      expect(message).toContain(expected);
    }
    const stats = await corpusStats(database);
    expect(stats.state).toMatchObject({ version: versionBefore, source: 'generated', seed: 5, size: 300 });
    expect(stats.total).toBe(300);
  });

  it('with skipInvalid imports the valid rows, drops duplicates and reports it all', async () => {
    const report = await importCorpusFile(database, file, { skipInvalid: true });
    expect(report).toMatchObject({
      format: 'jsonl',
      mode: 'replace',
      dryRun: false,
      read: 12,
      invalid: 6,
      duplicates: 1,
      imported: 4,
      total: 4,
      version: versionBefore + 1,
      language: 'eng',
      otherLanguages: { fra: 1 },
    });
    expect(report.errors[0]).toMatch(/^line 4: invalid JSON/);
    expect(report.errors).toHaveLength(6);
    expect(report.unknownTags).toEqual([{ tag: 'xyzzy', count: 1 }]);
    expect(report.byCategory).toMatchObject({
      'Humor & Wit': 1,
      'Silence & Stillness': 1,
      'Nature & Environment': 1,
      'Grief & Loss': 1,
      'War & Conflict': 0,
    });
    const quotes = await database.db.selectFrom('quotes').selectAll().orderBy('rank').execute();
    expect(quotes.map((quote) => quote.rank)).toEqual([0, 1, 2, 3]);
    const wilde = quotes.find((quote) => quote.author === 'Oscar Wilde')!;
    expect(wilde).toMatchObject({
      text: 'Be yourself; everyone else is already taken.',
      era: 'Modern',
      category: 'Humor & Wit',
      moods: ['humorous', 'inspirational'],
      id: quoteId('Be yourself; everyone else is already taken.', 'Oscar Wilde'),
    });
    expect(quotes.find((quote) => quote.author === 'Rumi')).toMatchObject({
      era: 'Medieval',
      faith_tradition: 'Islamic',
    });
    // A French quote in an English corpus is left out and counted, not mixed in.
    expect(quotes.find((quote) => quote.author === 'Élodie Brun')).toBeUndefined();
    expect((await corpusStats(database)).state).toMatchObject({ source: 'import messy.jsonl', seed: null, size: 4 });
  });

  it('with dryRun reports the same without writing anything', async () => {
    const report = await importCorpusFile(null, file, { skipInvalid: true, dryRun: true });
    expect(report).toMatchObject({
      dryRun: true,
      read: 12,
      invalid: 6,
      duplicates: 1,
      imported: 4,
      total: null,
      version: null,
    });
    expect((await corpusStats(database)).state).toMatchObject({ version: versionBefore, size: 300 });
  });

  it('refuses what it cannot read, with one line naming the problem', async () => {
    await expect(importCorpusFile(database, join(directory, 'missing.jsonl'))).rejects.toThrow(
      /^cannot read .*missing\.jsonl: ENOENT$/,
    );
    await expect(importCorpusFile(database, join(directory, 'quotes.txt'))).rejects.toThrow(
      'cannot tell the format of quotes.txt from its extension: pass --format jsonl or --format csv',
    );
    await expect(importCorpusFile(database, file, { defaultEra: 'Jurassic' })).rejects.toThrow(
      /^unknown era 'Jurassic' for --default-era: use one of Ancient, /,
    );
  });
});

describe('importCorpusFile with CSV', () => {
  it('reads quoted commas, quotes and line breaks, a BOM and CRLF, and counts lines across multi-line records', async () => {
    const file = join(directory, 'quotes.csv');
    const csv = [
      '\uFEFFText,Author,Category,Mood,Era,Secondary Category,Score',
      '"Commas, as it turns out, are fine.",Ilse Marrowby,Art & Literature,reflective,Modern,,12',
      '"A poem\nin two lines, with ""quotes"".","Tobias Ashgrove, Collected Poems",art & literature,"poignant,reflective",Contemporary,Memory & Nostalgia,7.5',
      'Plain row without quotes.,Odalys Fenwright,Hope & Optimism,uplifting,Present,Hope & Optimism,3',
      'Too short a row,Someone',
      'Bad era here.,Someone,Hope & Optimism,uplifting,Triassic,,1',
    ].join('\r\n');
    await writeFile(file, csv);
    const report = await importCorpusFile(database, file, { skipInvalid: true });
    expect(report).toMatchObject({ format: 'csv', read: 5, invalid: 2, imported: 3, duplicates: 0 });
    expect(report.errors).toEqual([
      'line 6: expected 7 fields (as in the header), got 2',
      "line 7: unknown era 'Triassic'",
    ]);
    const quotes = await database.db.selectFrom('quotes').selectAll().execute();
    const byAuthor = new Map(quotes.map((quote) => [quote.author, quote]));
    expect(byAuthor.get('Ilse Marrowby')).toMatchObject({
      text: 'Commas, as it turns out, are fine.',
      secondary_category: null,
      score: 12,
    });
    expect(byAuthor.get('Tobias Ashgrove')).toMatchObject({
      text: 'A poem\nin two lines, with "quotes".',
      category: 'Art & Literature',
      moods: ['poignant', 'reflective'],
      secondary_category: 'Memory & Nostalgia',
    });
    expect(byAuthor.get('Odalys Fenwright')).toMatchObject({ secondary_category: null, moods: ['uplifting'] });
  });

  it('reports bad UTF-8 in a field on its line, and takes the format from --format', async () => {
    const file = join(directory, 'export.data');
    await writeFile(
      file,
      Buffer.concat([
        Buffer.from('text,author,category,era\nGood row here.,A. Writer,Work & Purpose,Modern\nBad '),
        Buffer.from([0xc3, 0x28]),
        Buffer.from(' bytes.,A. Writer,Work & Purpose,Modern\n'),
      ]),
    );
    const report = await importCorpusFile(database, file, { format: 'csv', skipInvalid: true });
    expect(report).toMatchObject({ read: 2, invalid: 1, imported: 1 });
    expect(report.errors).toEqual(['line 3: not valid UTF-8']);
  });
});

describe('stable ids and append', () => {
  it('gives a quote the same id when it is imported again, whatever was loaded in between', async () => {
    const file = join(directory, 'stable.jsonl');
    await writeFile(
      file,
      jsonl(
        record('The river keeps its appointments.', 'Ilse Marrowby', 'Nature & Environment', 'Modern'),
        record('Grief keeps its own calendar.', 'Odalys Fenwright', 'Grief & Loss', 'Present', { score: 99 }),
      ),
    );
    await importCorpusFile(database, file);
    const first = await database.db.selectFrom('quotes').select(['id', 'text']).orderBy('id').execute();
    await seedCorpus();
    await importCorpusFile(database, file);
    const second = await database.db.selectFrom('quotes').select(['id', 'text']).orderBy('id').execute();
    expect(second).toEqual(first);
    expect(first.map((quote) => quote.id).sort()).toEqual(
      [
        quoteId('The river keeps its appointments.', 'Ilse Marrowby'),
        quoteId('Grief keeps its own calendar.', 'Odalys Fenwright'),
      ].sort(),
    );
  });

  it('appends new quotes, counts those already loaded as duplicates, and re-ranks the union', async () => {
    const before = await corpusStats(database);
    const file = join(directory, 'more.jsonl');
    await writeFile(
      file,
      jsonl(
        record('GRIEF keeps its own calendar', 'Odalys Fenwright', 'Grief & Loss', 'Present'),
        JSON.stringify({
          text: 'Hope is a lamp someone trims before the power comes back.',
          author: 'Ilse Marrowby',
          category: 'Hope & Optimism',
          era: 'Modern',
          score: 100,
        }),
      ),
    );
    const report = await importCorpusFile(database, file, { mode: 'append' });
    expect(report).toMatchObject({ mode: 'append', read: 2, imported: 1, duplicates: 1, total: before.total + 1 });
    const top = await database.db
      .selectFrom('quotes')
      .select(['text', 'rank'])
      .orderBy('rank')
      .executeTakeFirstOrThrow();
    expect(top).toEqual({ text: 'Hope is a lamp someone trims before the power comes back.', rank: 0 });
    expect((await corpusStats(database)).state?.source).toMatch(/ \+ import more\.jsonl$/);
  });
});
