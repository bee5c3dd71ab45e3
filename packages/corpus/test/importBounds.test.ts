import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CorpusError } from '../src/errors.js';
import { readAuthorsFile } from '../src/import/authorEras.js';
import { csvRecords, jsonlRecords, maxRecordBytes } from '../src/import/sourceRecords.js';

const chunkBytes = 256 * 1024;

/**
 * A file of `head` then `fill` repeated up to `totalBytes`, made as it is read: what the reader
 * pulls is counted, so a reader that stops early is seen stopping.
 */
function endlessFile(head: string, fill: string, totalBytes: number) {
  const state = { pulled: 0 };
  const filler = Buffer.alloc(chunkBytes, fill);
  let first = true;
  const input = new Readable({
    read() {
      if (state.pulled >= totalBytes) return void this.push(null);
      const chunk = first ? Buffer.concat([Buffer.from(head), filler]) : filler;
      first = false;
      state.pulled += chunk.length;
      this.push(chunk);
    },
  });
  return { input, state };
}

async function drain(records: AsyncIterable<unknown>): Promise<number> {
  let count = 0;
  for await (const _ of records) count++;
  return count;
}

describe('the size of one import record', () => {
  it.for([
    ['a quoted field left open', 'quote,author\n"ok",Ann\n"', 'x'],
    ['one unquoted field', 'quote,author\n"ok",Ann\n', 'y'],
    ['a record of empty fields', 'quote,author\n"ok",Ann\n', ','],
  ])('stops reading a CSV at %s past 1 MB, naming the line and the bound', async ([, head, fill]) => {
    const { input, state } = endlessFile(head!, fill!, 64 * 1024 * 1024);
    const refused = await drain(csvRecords(input, () => undefined)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CorpusError);
    expect((refused as Error).message).toMatch(
      /^line 3: a CSV record longer than 1 MB \(the most one record may hold;/,
    );
    expect((refused as Error).message).not.toContain('\n');
    // Read no further than the bound and the piece in hand: the 64 MB behind it stay unread.
    expect(state.pulled).toBeLessThanOrEqual(maxRecordBytes + 3 * chunkBytes);
    expect(input.destroyed).toBe(true);
  });

  it('reads CSV records up to the bound, however many, and the rest of the file after them', async () => {
    const big = 'z'.repeat(maxRecordBytes - 100);
    const lines = ['quote,author', `"${big}",Ann`, ...Array.from({ length: 5000 }, (_, index) => `"q${index}",Bo`)];
    const records: { values: Record<string, unknown> | null }[] = [];
    for await (const record of csvRecords(Readable.from([Buffer.from(lines.join('\n'))]), () => undefined))
      records.push(record);
    expect(records).toHaveLength(5001);
    expect(records[0]!.values).toEqual({ quote: big, author: 'Ann' });
  });

  it('drops a JSON line past the bound without holding it, and reads on', async () => {
    const { input, state } = endlessFile('{"quote":"ok","author":"Ann"}\n{"quote":"', 'x', 8 * 1024 * 1024);
    const records = [];
    for await (const record of jsonlRecords(input, () => undefined)) records.push(record);
    expect(records.map((record) => record.problem)).toEqual([null, 'line longer than 1 MB']);
    expect(state.pulled).toBeGreaterThanOrEqual(8 * 1024 * 1024);
  });
});

describe('cells the review file guarded against formulas', () => {
  it('read back as they were written', async () => {
    const file = 'quote,author\n"\'=HYPERLINK(""x"")",\'+cmd\n"\'\t=1","\'\'=already"\nplain,\'tis\n';
    const values = [];
    for await (const record of csvRecords(Readable.from([Buffer.from(file)]), () => undefined))
      values.push(record.values);
    expect(values).toEqual([
      { quote: '=HYPERLINK("x")', author: '+cmd' },
      { quote: '\t=1', author: "'=already" },
      { quote: 'plain', author: "'tis" },
    ]);
  });
});

describe('the size of an authors file', () => {
  it('refuses a line past 1,000 characters and a file past 16 MB, each in one line', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'corpus-authors-bounds-'));
    const longLine = join(directory, 'long-line.csv');
    await writeFile(longLine, `author,era\nAnn,Modern\n"${'x'.repeat(5000)}",Modern\n`);
    expect(() => readAuthorsFile(longLine)).toThrow(
      /^authors file .*long-line\.csv, line 3: longer than 1000 characters \(the most one author line may hold\)$/,
    );
    const large = join(directory, 'large.csv');
    await writeFile(large, 'author,era\n'.concat('Some Author,Modern\n'.repeat(900_000)));
    expect(() => readAuthorsFile(large)).toThrow(
      /^the authors file .*large\.csv is 16\.3 MB; an authors file is at most 16 MB$/,
    );
  });
});
