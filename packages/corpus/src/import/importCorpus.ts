import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { taxonomy } from '@quotes/contract';
import type { DatabaseHandle } from '@quotes/database';
import type { CorpusRow } from '../corpusRow.js';
import { CorpusError } from '../errors.js';
import { appendCorpus, type CorpusLoadReport, type LoadOptions, type LoadPhase, replaceCorpus } from '../loadCorpus.js';
import { hash32 } from '../generator/random.js';
import { normaliseForIdentity, quoteId } from '../quoteId.js';
import { type AuthorEraTable, type EraSource, readAuthorsFile } from './authorEras.js';
import { tagMappingDefaults } from './data/tagMapping.js';
import { createLanguageDetector, languageCode } from './detectLanguage.js';
import { mapRecord, matchEra, type MoodSource } from './mapRecord.js';
import { type ReviewReason, ReviewWriter } from './reviewFile.js';
import { csvRecords, type ImportFormat, jsonlRecords, type SourceRecord } from './sourceRecords.js';

export interface ImportOptions {
  /** Taken from the extension (.jsonl/.ndjson, .csv) when not given. */
  format?: ImportFormat;
  mode?: 'replace' | 'append';
  /** Import the valid rows and report the others, instead of failing the whole import. */
  skipInvalid?: boolean;
  /** Read, validate and count, without touching the database. */
  dryRun?: boolean;
  /** Era of rows whose era no source gives (default tagMappingDefaults.defaultEra, Present). */
  defaultEra?: string;
  /** CSV of author,era or author,born,died, consulted before the built-in table. */
  authorsFile?: string;
  /** The corpus language (ISO 639-3 code or English name, default eng); rows in others are skipped. */
  language?: string;
  /** Write the rows whose tags were guessed to this CSV, for the operator to correct and re-import. */
  reviewFile?: string;
  onProgress?: (progress: ImportProgress) => void;
  /** Runs in the load's last transaction, before it commits (see LoadOptions). */
  beforeCommit?: LoadOptions['beforeCommit'];
}

export interface ImportProgress {
  /** 'read' while the file is streamed into the database; then the load's own phases. */
  phase: 'read' | LoadPhase;
  bytesRead: number;
  totalBytes: number;
  records: number;
}

export interface ImportReport {
  file: string;
  format: ImportFormat;
  mode: 'replace' | 'append';
  dryRun: boolean;
  /** Records read from the file (blank lines are not records). */
  read: number;
  /** Quotes added to the corpus (in a dry run: that would be added). */
  imported: number;
  /** Rows dropped as the same quote as an earlier row (or, on append, one already loaded). */
  duplicates: number;
  invalid: number;
  /** The first problems, each with its line number. */
  errors: string[];
  /** Tagged rows none of whose tags named a category, filed under the fallback category. */
  fallbackCategory: number;
  /** The most frequent tags the mapping table does not know, to extend it. */
  unknownTags: Array<{ tag: string; count: number }>;
  /** Valid rows (repeated quotes included) by where their era came from. */
  eraSources: Record<EraSource, number>;
  /** The authors whose era was defaulted most often: the next ones to put in an --authors file. */
  defaultedAuthors: Array<{ author: string; count: number }>;
  /** Valid rows (repeated quotes included) by where their moods came from. */
  moodSources: Record<MoodSource, number>;
  /** Valid rows per first mood, to see that no mood carries the collection by default. */
  byMood: Record<string, number>;
  /** The corpus language, and the rows left out for being in another one (per ISO 639-3 code). */
  language: string;
  otherLanguages: Record<string, number>;
  /** On append: quotes replaced by corrected rows that brought their id. */
  corrected: number;
  /** The review file and how many rows it lists (null without --review). */
  review: { file: string; rows: number } | null;
  /** Imported quotes per primary category. */
  byCategory: Record<string, number>;
  /** Corpus size after the import (null in a dry run). */
  total: number | null;
  version: number | null;
  seconds: number;
  /** Dry run only: the distinct quote ids in the file, to count what the import would change. */
  quoteIds: ReadonlySet<string> | null;
}

const firstErrorsKept = 10;
const unknownTagsTracked = 10_000;

/** A problem with the import as a whole: the message says what and which lines. */
export class CorpusImportError extends CorpusError {
  override name = 'CorpusImportError';
}

export function formatOf(file: string, format?: string): ImportFormat {
  if (format !== undefined) {
    if (format === 'jsonl' || format === 'csv') return format;
    throw new CorpusImportError(`unknown format '${format}': use jsonl or csv`);
  }
  const extension = extname(file).toLowerCase();
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl';
  if (extension === '.csv') return 'csv';
  throw new CorpusImportError(
    `cannot tell the format of ${basename(file)} from its extension: pass --format jsonl or --format csv`,
  );
}

/**
 * Imports a JSONL or CSV file: streamed, every record validated and mapped onto the taxonomy,
 * then loaded with replaceCorpus/appendCorpus (atomic; nothing changes unless it all succeeds).
 * Unless skipInvalid, one invalid record fails the import: the rest of the file is still read
 * so the error names every bad line count, but nothing more is sent to the database.
 */
export async function importCorpusFile(
  handle: DatabaseHandle | null,
  file: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const started = performance.now();
  const format = formatOf(file, options.format);
  const mode = options.mode ?? 'replace';
  let defaultEra: string = tagMappingDefaults.defaultEra;
  if (options.defaultEra !== undefined) {
    const era = matchEra(options.defaultEra);
    if (!era)
      throw new CorpusImportError(
        `unknown era '${options.defaultEra}' for --default-era: use one of ${taxonomy.eras.join(', ')}`,
      );
    defaultEra = era;
  }
  const language = languageCode(options.language ?? tagMappingDefaults.language);
  if (!language)
    throw new CorpusImportError(
      `unknown language '${options.language}' for --language: use an ISO 639-3 code such as eng, spa, por`,
    );
  let authors: AuthorEraTable | null = null;
  if (options.authorsFile !== undefined) {
    try {
      authors = readAuthorsFile(options.authorsFile);
    } catch (error) {
      if (error instanceof CorpusError) throw new CorpusImportError(error.message);
      throw error;
    }
  }
  let totalBytes: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CorpusImportError(`${file} is not a file`);
    totalBytes = info.size;
  } catch (error) {
    if (error instanceof CorpusError) throw error;
    throw new CorpusImportError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  if (!options.dryRun && !handle) throw new CorpusImportError('no database to import into');

  const counts = { read: 0, invalid: 0, fallbackCategory: 0, bytesRead: 0 };
  const errors: string[] = [];
  const unknownTags = new Map<string, number>();
  const eraSources: Record<EraSource, number> = { row: 0, 'authors file': 0, 'known authors': 0, default: 0 };
  const moodSources: Record<MoodSource, number> = { row: 0, tags: 0, text: 0 };
  const byMood: Record<string, number> = Object.fromEntries(taxonomy.moods.map((mood) => [mood, 0]));
  const defaultedAuthors = new Map<string, number>();
  const otherLanguages: Record<string, number> = {};
  const detector = createLanguageDetector(language);
  const review = options.reviewFile === undefined ? null : new ReviewWriter(options.reviewFile, language);
  // Near duplicates: the same words under another author. A 32-bit hash of the text and the first
  // id per text (about 100 bytes a quote, only with --review); a collision only lists a row.
  const firstOfText = review ? new Map<number, string>() : null;
  const progress = (phase: ImportProgress['phase']) =>
    options.onProgress?.({ phase, bytesRead: counts.bytesRead, totalBytes, records: counts.read });
  let lastProgress = 0;
  const onBytes = (bytes: number) => {
    counts.bytesRead += bytes;
    const now = performance.now();
    if (now - lastProgress > 200) {
      lastProgress = now;
      progress('read');
    }
  };

  const input = createReadStream(file, { highWaterMark: 256 * 1024 });
  const records: AsyncIterable<SourceRecord> =
    format === 'jsonl' ? jsonlRecords(input, onBytes) : csvRecords(input, onBytes);
  const failOnInvalid = !options.skipInvalid;
  const invalid = (line: number, problem: string) => {
    counts.invalid++;
    if (errors.length < firstErrorsKept) errors.push(`line ${line}: ${problem}`);
  };

  async function* validRows(): AsyncGenerator<CorpusRow> {
    try {
      for await (const record of records) {
        counts.read++;
        if (record.problem !== null || record.values === null) {
          invalid(record.line, record.problem ?? 'unreadable');
          continue;
        }
        const mapped = mapRecord(record.values, { defaultEra, authors, language: detector });
        if (mapped.otherLanguage !== undefined) {
          otherLanguages[mapped.otherLanguage] = (otherLanguages[mapped.otherLanguage] ?? 0) + 1;
          continue;
        }
        if (mapped.problem !== undefined) {
          invalid(record.line, mapped.problem);
          continue;
        }
        if (mapped.usedFallbackCategory) counts.fallbackCategory++;
        eraSources[mapped.eraSource]++;
        moodSources[mapped.moodSource]++;
        byMood[mapped.row.moods[0]!] = (byMood[mapped.row.moods[0]!] ?? 0) + 1;
        if (mapped.eraSource === 'default') {
          const author = mapped.row.author;
          if (defaultedAuthors.has(author) || defaultedAuthors.size < unknownTagsTracked)
            defaultedAuthors.set(author, (defaultedAuthors.get(author) ?? 0) + 1);
        }
        if (review) {
          const id = mapped.row.id ?? quoteId(mapped.row.text, mapped.row.author);
          const reasons: ReviewReason[] = [];
          const notes: string[] = [];
          if (mapped.eraSource === 'default') reasons.push('defaulted era');
          if (mapped.moodSource === 'text') reasons.push('inferred mood');
          if (mapped.usedFallbackCategory) reasons.push('fallback category');
          const textKey = hash32(normaliseForIdentity(mapped.row.text));
          const first = firstOfText!.get(textKey);
          if (first === undefined) firstOfText!.set(textKey, id);
          else if (first !== id) {
            reasons.push('near duplicate');
            notes.push(`same text as ${first}`);
          }
          if (reasons.length > 0) await review.add(id, mapped.row, reasons, notes.join('; '));
        }
        for (const tag of mapped.unknownTags) {
          if (unknownTags.has(tag) || unknownTags.size < unknownTagsTracked)
            unknownTags.set(tag, (unknownTags.get(tag) ?? 0) + 1);
        }
        // Once the import is bound to fail, keep validating (to count the bad lines) but stop loading.
        if (failOnInvalid && counts.invalid > 0) continue;
        yield mapped.row;
      }
    } finally {
      input.destroy();
      await review?.close();
    }
    progress('read');
    if (failOnInvalid && counts.invalid > 0) {
      const more = counts.invalid > errors.length ? `; and ${counts.invalid - errors.length} more` : '';
      throw new CorpusImportError(
        `${counts.invalid} invalid row${counts.invalid === 1 ? '' : 's'} in ${basename(file)}, nothing imported ` +
          `(--skip-invalid imports the valid rows): ${errors.join('; ')}${more}`,
      );
    }
  }

  let load: Pick<CorpusLoadReport, 'imported' | 'duplicates' | 'corrected' | 'byCategory'> & {
    total: number | null;
    version: number | null;
    quoteIds?: ReadonlySet<string>;
  };
  if (options.dryRun) {
    const seen = new Set<string>();
    const byCategory: Record<string, number> = Object.fromEntries(taxonomy.categories.map((category) => [category, 0]));
    let duplicates = 0;
    for await (const row of validRows()) {
      const id = row.id ?? quoteId(row.text, row.author);
      if (seen.has(id)) {
        duplicates++;
        continue;
      }
      seen.add(id);
      byCategory[row.category] = (byCategory[row.category] ?? 0) + 1;
    }
    load = { imported: seen.size, duplicates, corrected: 0, byCategory, total: null, version: null, quoteIds: seen };
  } else {
    const loader = mode === 'append' ? appendCorpus : replaceCorpus;
    try {
      load = await loader(
        handle!,
        validRows(),
        { source: `import ${basename(file)}`, seed: null },
        {
          onProgress: (event) => {
            if (event.phase !== 'copy') progress(event.phase);
          },
          beforeCommit: options.beforeCommit,
        },
      );
    } catch (error) {
      if (error instanceof CorpusError) throw error;
      throw new CorpusImportError(
        `import of ${basename(file)} failed, the corpus is unchanged: ${(error as Error).message}`,
      );
    }
  }

  return {
    file,
    format,
    mode,
    dryRun: options.dryRun ?? false,
    read: counts.read,
    imported: load.imported,
    duplicates: load.duplicates,
    invalid: counts.invalid,
    errors,
    fallbackCategory: counts.fallbackCategory,
    unknownTags: [...unknownTags.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 10)
      .map(([tag, count]) => ({ tag, count })),
    eraSources,
    defaultedAuthors: [...defaultedAuthors.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 10)
      .map(([author, count]) => ({ author, count })),
    moodSources,
    byMood,
    language,
    otherLanguages,
    corrected: load.corrected,
    review: review ? { file: review.file, rows: review.rows } : null,
    byCategory: load.byCategory,
    total: load.total,
    version: load.version,
    seconds: (performance.now() - started) / 1000,
    quoteIds: load.quoteIds ?? null,
  };
}
