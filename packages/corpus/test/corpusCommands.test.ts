import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { Command, CommanderError } from 'commander';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerCorpusCommands } from '../src/cli/corpusCommands.js';
import { CorpusError } from '../src/index.js';
import type { OpenedDatabase } from '@quotes/database';
import type { TestDatabase } from '@quotes/database/testing';
import { databaseAndFolder, fileOfLines } from './support/databaseAndFolder.js';

let database: TestDatabase;
let directory: string;
beforeAll(async () => ({ database, directory } = await databaseAndFolder('corpus-cli-')));
afterAll(() => database?.drop());
afterEach(() => vi.restoreAllMocks());

/** What the last run wrote to stderr (the progress lines; stdout is not a terminal here). */
let stderr: string[] = [];

/** A stream that keeps what is written to it. */
function kept(into: string[]): PassThrough {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => into.push(chunk.toString('utf8')));
  return stream;
}

/** Runs `quotes-admin ARGS` against the test database and returns what it printed on stdout. */
async function run(...args: string[]): Promise<string> {
  const program = new Command('quotes-admin')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  const printed: string[] = [];
  stderr = [];
  registerCorpusCommands(
    program,
    async () => {
      // The CLI closes what it opens; the test database must outlive each command.
      return { ...database, kind: 'external', close: async () => undefined } as OpenedDatabase;
    },
    () => ({ size: 1200, seed: 77 }),
    undefined,
    { stdout: kept(printed), stderr: kept(stderr), stdin: Readable.from([]) },
  );
  await program.parseAsync(['node', 'quotes-admin', ...args]);
  // What was written reaches the streams' readers on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  return printed.join('').replace(/\n$/, '');
}

describe('quotes-admin corpus', () => {
  it('generate loads a seeded corpus and says so', async () => {
    const output = await run('corpus', 'generate', '--size', '1200', '--seed', '77');
    expect(output).toMatch(/^Generated and loaded 1,200 quotes \(seed 77\)/);
    expect(output).toMatch(/quotes +1,200 \(corpus version 1\)/);
  });

  it('stats prints every dimension, and JSON with --json', async () => {
    const text = await run('corpus', 'stats');
    expect(text).toMatch(/^Quotes: 1,200\nSource: generated \(seed 77\), version 1, loaded /);
    for (const heading of ['By category:', 'By mood', 'By era:', 'By length:', 'By faith tradition:'])
      expect(text).toContain(heading);
    const json = JSON.parse(await run('corpus', 'stats', '--json'));
    expect(json).toMatchObject({ total: 1200, state: { source: 'generated', seed: 77, size: 1200, version: 1 } });
    expect(Object.keys(json.byCategory)).toHaveLength(43);
  });

  it('import prints the end report; --dry-run counts against the corpus and writes nothing', async () => {
    const file = await fileOfLines(directory, 'few.jsonl', [
      JSON.stringify({ text: 'The river keeps its appointments.', author: 'Ilse Marrowby', tags: 'nature, rivers' }),
      '{broken',
      JSON.stringify({ text: 'Grief keeps its own calendar.', author: 'Odalys Fenwright', tags: ['grief'] }),
    ]);
    const dry = await run(
      'corpus',
      'import',
      file,
      '--mode',
      'replace',
      '--dry-run',
      '--skip-invalid',
      '--default-era',
      'present',
    );
    expect(dry).toMatch(/^Dry run of .*few\.jsonl \(jsonl, replace\)/);
    expect(dry).toContain('line 2: invalid JSON');
    expect(dry).toMatch(/would be removed +1,200 \(100% of the corpus\)/);
    expect(await run('corpus', 'stats')).toMatch(/^Quotes: 1,200/);
    const real = await run(
      'corpus',
      'import',
      file,
      '--mode',
      'replace',
      '--yes',
      '--skip-invalid',
      '--default-era',
      'Present',
    );
    expect(real).toMatch(/rows read +3/);
    expect(real).toMatch(/imported +2/);
    expect(real).toMatch(/invalid +1 \(skipped\)/);
    expect(real).toMatch(/unknown tags +rivers \(1\)/);
    expect(real).toMatch(/Grief & Loss +1/);
    expect(real).toMatch(/corpus now +2 quotes \(version 2\)/);
    expect(real).toMatch(/era from +default 2/);
    expect(real).toMatch(/era defaulted for +Ilse Marrowby \(1\), Odalys Fenwright \(1\)/);
    expect(real).toMatch(/other language +0 skipped \(corpus language eng\)/);
  });

  it('import reports its figures in one column with the right nouns, and progress that counts what was read', async () => {
    const file = join(directory, 'one.jsonl');
    await writeFile(file, `${JSON.stringify({ text: 'A lamp argues with the night.', author: 'Pell Harrow' })}\n`);
    const review = join(directory, 'one-review.csv');
    const dry = await run('corpus', 'import', file, '--mode', 'append', '--dry-run', '--review', review);
    // Off a terminal: one line for the read, with the count read, not one a phase.
    expect(stderr).toEqual(['dry run: reading 100% (1 row read)\n']);
    expect(dry).toMatch(/review file +.*one-review\.csv \(1 row to check\)/);
    const labelled = dry.split('\n').filter((line) => /^ {2}\S.*? {2,}\S/.test(line));
    expect(labelled.length).toBeGreaterThan(8);
    const columns = new Set(labelled.map((line) => line.search(/(?<= {2})\S(?!.* {2,}\S)/)));
    expect(columns.size, labelled.join('\n')).toBe(1);
    expect(dry).toMatch(/^ {4}corpus would be [\d,]+ quotes$/m);

    await run('corpus', 'import', file, '--mode', 'append');
    expect(stderr[0]).toBe('import: reading 100% (1 row read)\n');
    // Each later phase is named once, without repeating the read count.
    expect(
      stderr.slice(1).every((line) => /^import: [a-z ]+\n$/.test(line)),
      stderr.join(''),
    ).toBe(true);
    expect(stderr.length).toBeGreaterThan(3);
  });

  it('import takes --authors, --language and --review, and says what it guessed', async () => {
    const file = await fileOfLines(directory, 'curation.csv', [
      'quote,author,tags',
      '"Caminante, no hay camino, se hace camino al andar.",Antonio Machado,vida',
      '"The river keeps its appointments, and so should you.","Ilse Marrowby, River Notes",nature',
      '"We suffer more often in imagination than in reality.",Seneca,',
    ]);
    const authors = join(directory, 'authors.csv');
    await writeFile(authors, 'author,era\nIlse Marrowby,Modern\n');
    const review = join(directory, 'review.csv');
    const output = await run(
      'corpus',
      'import',
      file,
      '--mode',
      'append',
      '--authors',
      authors,
      '--review',
      review,
      '--language',
      'english',
    );
    expect(output).toMatch(/imported +2/);
    expect(output).toMatch(/era from +authors file 1, known authors 1/);
    expect(output).toMatch(/other language +1 skipped \(corpus language eng: spa 1\)/);
    expect(output).toMatch(/review file +.*review\.csv \(2 rows to check\)/);
    const spanish = await run('corpus', 'import', file, '--mode', 'append', '--language', 'spa', '--dry-run');
    expect(spanish).toMatch(/would import +1/);
    await expect(
      run('corpus', 'import', file, '--mode', 'append', '--language', 'klingon', '--dry-run'),
    ).rejects.toThrow(/^unknown language 'klingon' for --language/);
    await writeFile(authors, 'Ilse Marrowby,Jurassic\n');
    await expect(run('corpus', 'import', file, '--mode', 'append', '--authors', authors, '--dry-run')).rejects.toThrow(
      /^authors file .*authors\.csv, line 1: unknown era 'Jurassic'/,
    );
  });

  it('fails with one line naming the problem', async () => {
    const failure = run('corpus', 'import', join(directory, 'absent.csv'), '--mode', 'append');
    await expect(failure).rejects.toBeInstanceOf(CorpusError);
    await expect(failure).rejects.toThrow(/^cannot read .*absent\.csv: ENOENT$/);
    await expect(run('corpus', 'generate', '--size', 'many')).rejects.toBeInstanceOf(CommanderError);
    await expect(run('corpus', 'import', 'x.jsonl', '--mode', 'merge')).rejects.toBeInstanceOf(CommanderError);
  });

  it('generate never replaces most of a loaded corpus unasked: off a terminal it needs --yes', async () => {
    const before = JSON.parse(await run('corpus', 'stats', '--json'));
    await expect(run('corpus', 'generate', '--size', '1000', '--seed', '78')).rejects.toThrow(
      /^refused: this replace would remove ([\d,]+) of \1 quotes \(100%\) and leave 1,000; pass --yes/,
    );
    expect(JSON.parse(await run('corpus', 'stats', '--json'))).toEqual(before);
    const output = await run('corpus', 'generate', '--size', '1000', '--seed', '78', '--yes');
    expect(output).toMatch(/^Generated and loaded 1,000 quotes \(seed 78\)/);
  });
});
