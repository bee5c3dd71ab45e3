import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { csvLine } from '@quotes/text-rules';
import type { CorpusRow } from '../corpusRow.js';
import { CorpusError } from '../errors.js';

/** Why a row is in the review file: each names a tag the importer had to guess. */
export type ReviewReason = 'defaulted era' | 'inferred mood' | 'fallback category' | 'near duplicate';

/**
 * Columns of the review file: the row as imported, in the importer's own curated format, so the
 * operator corrects a cell and imports the file again (`--mode append`). `id` keeps each quote's
 * id even when its text or author is corrected; `reasons` and `note` are read by people only.
 */
export const reviewColumns = [
  'id',
  'reasons',
  'note',
  'text',
  'author',
  'category',
  'secondary_category',
  'moods',
  'era',
  'faith_tradition',
  'score',
  'language',
] as const;

/**
 * Streams review rows to a CSV file; each quote id is written once. The operator opens it in a
 * spreadsheet: texts and authors that read as formulas are written as text (see csvWriter), and
 * the importer reads them back as they were.
 */
export class ReviewWriter {
  private readonly output: WriteStream;
  private readonly written = new Set<string>();
  private failure: Error | null = null;
  rows = 0;

  constructor(
    readonly file: string,
    private readonly language: string,
  ) {
    this.output = createWriteStream(file);
    this.output.on('error', (error) => {
      this.failure = error;
    });
    this.output.write(csvLine(reviewColumns));
  }

  async add(id: string, row: CorpusRow, reasons: ReviewReason[], note: string): Promise<void> {
    if (this.failure) throw new CorpusError(`cannot write the review file ${this.file}: ${this.failure.message}`);
    if (this.written.has(id)) return;
    this.written.add(id);
    this.rows++;
    const line = csvLine([
      id,
      reasons.join('; '),
      note,
      row.text,
      row.author,
      row.category,
      row.secondary_category,
      row.moods.join(','),
      row.era,
      row.faith_tradition,
      row.score,
      this.language,
    ]);
    if (!this.output.write(line)) await once(this.output, 'drain');
  }

  async close(): Promise<void> {
    this.output.end();
    if (!this.output.writableFinished && !this.failure) await once(this.output, 'close').catch(() => undefined);
    if (this.failure) throw new CorpusError(`cannot write the review file ${this.file}: ${this.failure.message}`);
  }
}
