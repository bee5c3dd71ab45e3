import type { Readable } from 'node:stream';
import { withoutFormulaGuard } from '@quotes/text-rules';
import { parse as parseCsv } from 'csv-parse';
import { CorpusError } from '../errors.js';

/** One record of an import file: its values, or why it could not be read. */
export interface SourceRecord {
  /** 1-based line the record starts on (CSV records may span several lines). */
  line: number;
  values: Record<string, unknown> | null;
  problem: string | null;
}

export type ImportFormat = 'jsonl' | 'csv';

/**
 * The most one record (a JSON line, a CSV record) may hold. A line this long is not a quotation
 * but a binary or minified file, or a CSV quote left open that swallows the rest of the file;
 * stopping there keeps memory bounded whatever the file.
 */
export const maxRecordBytes = 1024 * 1024;
const maxRecordText = `${maxRecordBytes / 1024 / 1024} MB`;

/** The parser is fed this much at a time, so a record is caught at most this far past the bound. */
const feedBytes = 64 * 1024;

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

function jsonlRecord(bytes: Uint8Array, line: number): SourceRecord | null {
  const text = decodeUtf8(bytes);
  if (text === null) return { line, values: null, problem: 'not valid UTF-8' };
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch (error) {
    return { line, values: null, problem: `invalid JSON (${(error as Error).message})` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { line, values: null, problem: 'expected a JSON object' };
  }
  return { line, values: parsed as Record<string, unknown>, problem: null };
}

/**
 * JSON Lines, split on the newline byte before decoding: UTF-8 never uses 0x0A inside a
 * character, so a bad byte is reported on its own line instead of corrupting the rest.
 */
export async function* jsonlRecords(input: Readable, onBytes: (bytes: number) => void): AsyncGenerator<SourceRecord> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let oversized = false;
  let line = 0;
  const finishLine = (): SourceRecord | null => {
    line++;
    const record = oversized
      ? { line, values: null, problem: `line longer than ${maxRecordText}` }
      : jsonlRecord(pending.length === 1 ? pending[0]! : Buffer.concat(pending), line);
    pending = [];
    pendingBytes = 0;
    oversized = false;
    return record;
  };
  for await (const chunk of input as AsyncIterable<Buffer>) {
    onBytes(chunk.length);
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
      if (!oversized) pending.push(chunk.subarray(start, newline));
      const record = finishLine();
      if (record) yield record;
      start = newline + 1;
    }
    if (start < chunk.length && !oversized) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > maxRecordBytes) {
        oversized = true;
        pending = [];
      }
    }
  }
  if (pending.length > 0 || oversized) {
    const record = finishLine();
    if (record) yield record;
  }
}

/** Header names as written by spreadsheets: `Secondary Category`, `faith-tradition`. */
export function fieldKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/**
 * CSV with a header row, as spreadsheets write it (RFC 4180: quoted fields may hold commas,
 * quotes and newlines). Fields arrive as their bytes and are decoded one by one, so bad UTF-8
 * is reported for its record. A record the parser cannot read is reported and skipped. A record
 * past maxRecordBytes stops the import at once (its line named): after a quote left open no
 * later record boundary can be trusted. A cell the review file guarded against formulas (a
 * leading `'`, see csvWriter) is read back as it was.
 */
export async function* csvRecords(input: Readable, onBytes: (bytes: number) => void): AsyncGenerator<SourceRecord> {
  const skipped: SourceRecord[] = [];
  // Where the last record the parser finished (or gave up on) ended: what lies past it is the
  // record being read, held in the parser's memory until it ends.
  const finished = { bytes: 0, lines: 0 };
  // Fields as latin1 strings, one character a byte: their bytes unchanged for the UTF-8 check
  // below, at a string's cost (as Uint8Arrays, a megabyte of empty fields took 440 MB). No `bom`
  // option: when csv-parse finds a BOM it switches to decoding fields itself, which would hide bad
  // bytes. The header's first field is decoded by TextDecoder, which drops a BOM.
  const parser = parseCsv({
    encoding: 'latin1',
    info: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (record, context) => {
      finished.bytes = context.bytes;
      finished.lines = context.lines;
      return record;
    },
  });
  parser.on('skip', (error: Error & { lines?: number }) => {
    finished.bytes = parser.info.bytes;
    skipped.push({ line: error.lines ?? 0, values: null, problem: `unreadable CSV (${error.message})` });
  });

  // The file is fed by hand rather than piped, so that each piece has been parsed before the next
  // is read and the record in progress is measured as it grows.
  const fed = (async () => {
    let parsed = 0;
    try {
      for await (const chunk of input as AsyncIterable<Buffer>) {
        onBytes(chunk.length);
        for (let start = 0; start < chunk.length; start += feedBytes) {
          const piece = chunk.subarray(start, start + feedBytes);
          await new Promise<void>((resolve, reject) =>
            parser.write(piece, (error) => (error ? reject(error) : resolve())),
          );
          parsed += piece.length;
          if (parsed - finished.bytes > maxRecordBytes)
            throw new CorpusError(
              `line ${finished.lines + 1}: a CSV record longer than ${maxRecordText} (the most one record may hold; ` +
                'a quoted field missing its closing quote runs on like this), nothing imported',
            );
        }
      }
      parser.end();
    } catch (error) {
      input.destroy();
      parser.destroy(error as Error);
    }
  })();

  let header: string[] | null = null;
  let previousEnd = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      while (skipped.length > 0) yield skipped.shift()!;
      const endLine = info.lines;
      // The record starts after the previous one ended (blank lines in between are rare enough
      // that counting them is not worth the parser's extra bookkeeping).
      const line = Math.min(previousEnd + 1, endLine);
      previousEnd = endLine;
      const decoded = record.map((field) => decodeUtf8(Buffer.from(field, 'latin1')));
      if (header === null) {
        if (decoded.some((field) => field === null)) throw new CorpusError('line 1: the CSV header is not valid UTF-8');
        header = (decoded as string[]).map(fieldKey);
        continue;
      }
      if (decoded.some((field) => field === null)) {
        yield { line, values: null, problem: 'not valid UTF-8' };
        continue;
      }
      const fields = (decoded as string[]).map(withoutFormulaGuard);
      if (fields.length !== header.length) {
        yield {
          line,
          values: null,
          problem: `expected ${header.length} fields (as in the header), got ${fields.length}`,
        };
        continue;
      }
      const values: Record<string, unknown> = {};
      header.forEach((name, index) => {
        values[name] = fields[index];
      });
      yield { line, values, problem: null };
    }
    while (skipped.length > 0) yield skipped.shift()!;
  } finally {
    // Stopped early (an error, or the caller stopped reading): stop the feeding too.
    if (!parser.destroyed && !parser.readableEnded) parser.destroy();
    input.destroy();
    await fed;
  }
}
