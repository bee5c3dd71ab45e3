import { createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { type OpenedDatabase, withDatabase } from '@quotes/database';
import { visibleLines } from '@quotes/text-rules';
import type { CorpusRow } from '../corpusRow.js';
import { corpusStats } from '../corpusStats.js';
import { generatedSource } from '../defaultCorpus.js';
import { CorpusError } from '../errors.js';
import { generateCorpus } from '../generator/generateCorpus.js';
import { type CorpusLoadReport, type LoadOptions, replaceCorpus } from '../loadCorpus.js';
import { quoteId } from '../quoteId.js';
import { type ImportOptions, importCorpusFile } from '../import/importCorpus.js';
import {
  type ImportImpact,
  impactLines,
  importImpact,
  needsConfirmation,
  removalRefused,
  removalSummary,
} from '../import/importImpact.js';
import { counted } from './terminalText.js';

import { importReportLines, loadReportLines, statsLines } from './corpusReports.js';
import { progressDisplay } from './loadProgress.js';
import { type CorpusCliIo, processStreams } from './corpusCliIo.js';
import { defaultCorpusSeed, defaultCorpusSize } from '../defaultCorpusSettings.js';

export { importReportLines, statsLines } from './corpusReports.js';
const number = (value: number) => value.toLocaleString('en-US');

function integerOption(name: string, min: number) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed) || parsed < min) {
      throw new InvalidArgumentError(`${name} must be a whole number >= ${min}`);
    }
    return parsed;
  };
}

function asCorpusError(error: unknown, what: string): CorpusError {
  if (error instanceof CorpusError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new CorpusError(`${what} failed: ${message.split('\n')[0]}`);
}

async function withCorpusDatabase<T>(
  openDatabase: () => Promise<OpenedDatabase>,
  what: string,
  work: (database: OpenedDatabase) => Promise<T>,
): Promise<T> {
  try {
    return await withDatabase(openDatabase, work);
  } catch (error) {
    throw asCorpusError(error, what);
  }
}

/** Categories the import touched; a 43-line list of zeros would hide the few that matter. */
async function writeJsonl(
  rows: Iterable<CorpusRow>,
  output: Writable | NodeJS.WritableStream,
  end: boolean,
): Promise<void> {
  async function* lines() {
    let chunk = '';
    for (const row of rows) {
      chunk += `${JSON.stringify({ id: quoteId(row.text, row.author), ...row })}\n`;
      if (chunk.length > 64 * 1024) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  await pipeline(Readable.from(lines()), output, { end });
}

/** The size and seed `corpus generate` uses when not given (the server's CORPUS_SIZE and CORPUS_SEED; unset, the corpus's defaults). */
export interface CorpusDefaults {
  readonly size: number | undefined;
  readonly seed: number | undefined;
}

/** How long a confirmation prompt waits for an answer before it counts as "no". */
const confirmationWaitMs = 5 * 60_000;

/**
 * A replace removing most of the corpus goes ahead only when the operator says so: typed on a
 * terminal, or --yes. Without a terminal and without --yes it is refused, with nothing changed.
 */
async function confirmRemoval(io: CorpusCliIo, impact: ImportImpact, hint?: string): Promise<void> {
  if (!io.stdin.isTTY || !io.stderr.isTTY) throw removalRefused(impact, hint);
  const prompt = createInterface({ input: io.stdin, output: io.stderr });
  const timeout = AbortSignal.timeout(confirmationWaitMs);
  try {
    const answer = await prompt.question(`${removalSummary(impact)}.\nType "replace" to go on: `, {
      signal: timeout,
    });
    if (answer.trim() !== 'replace') throw new CorpusError('not confirmed: the corpus is unchanged');
  } catch (error) {
    if (error instanceof CorpusError) throw error;
    throw new CorpusError('no answer: the corpus is unchanged');
  } finally {
    prompt.close();
  }
}

/**
 * What a load commits with (the operator's audit entry): given the command and its arguments, a
 * hook run in the swap's transaction (see LoadOptions.beforeCommit).
 */
export type LoadRecorder = (command: 'generate' | 'import', args: readonly string[]) => LoadOptions['beforeCommit'];

/** Adds `corpus generate`, `corpus import` and `corpus stats` to the operator CLI. */
export function registerCorpusCommands(
  program: Command,
  openDatabase: () => Promise<OpenedDatabase>,
  defaults: () => CorpusDefaults,
  recordLoad: LoadRecorder = () => undefined,
  io: CorpusCliIo = processStreams,
): void {
  const print = (text: string) => io.stdout.write(`${text}\n`);
  const corpus = program.command('corpus').description('Generate, import and inspect the quote corpus');

  corpus
    .command('generate')
    .description('Generate the realistic default corpus and load it in place of the current one (atomic swap)')
    .option('--size <n>', 'number of quotes (default: CORPUS_SIZE, 152000)', integerOption('--size', 1))
    .option(
      '--seed <s>',
      'generator seed; the same seed gives the same corpus and ids (default: CORPUS_SEED)',
      integerOption('--seed', 0),
    )
    .option('--output <file>', "write the quotes as JSON Lines to FILE ('-' for stdout) instead of loading them")
    .option('--yes', 'confirm replacing a corpus of which more than half would go (asked on a terminal otherwise)')
    .action(async (options: { size?: number; seed?: number; output?: string; yes?: boolean }, command: Command) => {
      const fallback = options.size === undefined || options.seed === undefined ? defaults() : null;
      const size = options.size ?? fallback!.size ?? defaultCorpusSize;
      const seed = options.seed ?? fallback!.seed ?? defaultCorpusSeed;
      if (options.output !== undefined) {
        try {
          const toStdout = options.output === '-';
          const output = toStdout ? io.stdout : createWriteStream(options.output);
          await writeJsonl(generateCorpus({ size, seed }), output, !toStdout);
        } catch (error) {
          throw asCorpusError(error, 'corpus generate --output');
        }
        return;
      }
      await withCorpusDatabase(openDatabase, 'corpus generate', async (database) => {
        // Generating replaces the corpus: the same check as an import's replace, so the operator's
        // own quotes are never swapped for generated ones without saying so.
        if (!options.yes) {
          const ids = new Set<string>();
          for (const row of generateCorpus({ size, seed })) ids.add(quoteId(row.text, row.author));
          const impact = await importImpact(database, ids, 'replace');
          if (needsConfirmation(impact))
            await confirmRemoval(io, impact, 'pass --yes to replace it with the generated corpus');
        }
        const display = progressDisplay('generate', io);
        let report: CorpusLoadReport;
        try {
          report = await replaceCorpus(
            database,
            generateCorpus({ size, seed }),
            { source: generatedSource, seed },
            {
              beforeCommit: recordLoad('generate', command.args),
              onProgress: ({ phase, rows }) =>
                display.update(
                  phase,
                  phase === 'copy'
                    ? { done: rows, total: size, detail: `${number(rows)} of ${counted(size, 'quote')}` }
                    : undefined,
                ),
            },
          );
        } finally {
          display.stop();
        }
        print([`Generated and loaded ${number(size)} quotes (seed ${seed})`, ...loadReportLines(report)].join('\n'));
      });
    });

  corpus
    .command('import')
    .description('Import quotes from a JSON Lines or CSV file, replacing the corpus or appending to it (atomic)')
    .argument('<file>', 'the file to import (.jsonl/.ndjson or .csv)')
    .addOption(new Option('--format <format>', 'file format (default: from the extension)').choices(['jsonl', 'csv']))
    .addOption(
      new Option('--mode <mode>', 'replace the corpus with the file, or append the file to it (no default)')
        .choices(['replace', 'append'])
        .makeOptionMandatory(),
    )
    .option(
      '--skip-invalid',
      'import the valid rows and report the invalid ones (default: any invalid row fails the import)',
    )
    .option('--dry-run', 'read, validate and count what would be added, replaced and removed, without writing')
    .option('--yes', 'confirm a replace that removes more than half the corpus (asked on a terminal otherwise)')
    .option(
      '--default-era <era>',
      'era of rows that give none and whose author neither --authors nor the built-in table knows (default: Present)',
    )
    .option('--authors <file>', 'CSV of author,era or author,born,died, consulted before the built-in author table')
    .option(
      '--language <code>',
      'language of the corpus, ISO 639-3 (eng, spa, por...); other rows are skipped (default: eng)',
    )
    .option(
      '--review <file>',
      'write the rows whose tags were guessed to FILE (CSV) to correct and re-import with --mode append',
    )
    .action(
      async (
        file: string,
        options: {
          format?: 'jsonl' | 'csv';
          mode: 'replace' | 'append';
          skipInvalid?: boolean;
          dryRun?: boolean;
          yes?: boolean;
          defaultEra?: string;
          authors?: string;
          language?: string;
          review?: string;
        },
        command: Command,
      ) => {
        const importOptions: ImportOptions = {
          format: options.format,
          mode: options.mode,
          skipInvalid: options.skipInvalid,
          defaultEra: options.defaultEra,
          authorsFile: options.authors,
          language: options.language,
        };
        const read = async (database: OpenedDatabase | null, dryRun: boolean, label: string) => {
          // The check before a replace reports nothing off a terminal: its outcome is one line.
          const display =
            label === 'checking' && !io.stdout.isTTY
              ? { update: () => undefined, stop: () => undefined }
              : progressDisplay(label, io);
          try {
            return await importCorpusFile(database, file, {
              ...importOptions,
              dryRun,
              // Written by the pass whose report is printed, not by the check before a replace.
              ...(label === 'checking' ? {} : { reviewFile: options.review }),
              beforeCommit: dryRun ? undefined : recordLoad('import', command.args),
              onProgress: ({ phase, bytesRead, totalBytes, records }) =>
                display.update(
                  phase,
                  phase === 'read'
                    ? { done: bytesRead, total: totalBytes, detail: `${counted(records, 'row')} read` }
                    : undefined,
                ),
            });
          } finally {
            display.stop();
          }
        };
        await withCorpusDatabase(
          openDatabase,
          options.dryRun ? 'corpus import --dry-run' : 'corpus import',
          async (database) => {
            // A first, read-only pass counts what the import changes: the dry run's report, and the
            // check before a replace that would remove most of the corpus.
            let impact: ImportImpact | undefined;
            if (options.dryRun || options.mode === 'replace') {
              const preview = await read(null, true, options.dryRun ? 'dry run' : 'checking');
              impact = await importImpact(database, preview.quoteIds ?? new Set(), options.mode);
              if (options.dryRun) {
                print(visibleLines([...importReportLines(preview), ...impactLines(impact, true)].join('\n')));
                return;
              }
              if (needsConfirmation(impact) && !options.yes) await confirmRemoval(io, impact);
            }
            const report = await read(database, false, 'import');
            print(visibleLines(importReportLines(report).join('\n')));
          },
        );
      },
    );

  corpus
    .command('stats')
    .description('Counts per category, mood, era, length and faith tradition, and where the corpus came from')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await withCorpusDatabase(openDatabase, 'corpus stats', async (database) => {
        const stats = await corpusStats(database);
        // File names and tags come from outside: escaped on the way to the terminal (see visibleText in @quotes/text-rules).
        print(visibleLines(options.json ? JSON.stringify(stats, null, 2) : statsLines(stats).join('\n')));
      });
    });
}
