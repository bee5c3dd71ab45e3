import { type CorpusRow, problemWithRow } from './corpusRow.js';
import { CorpusValidationError } from './errors.js';
import { quoteId } from './quoteId.js';

/** Corpus rows as PostgreSQL's COPY text, in chunks: what the loader streams into quotes_next. */

export type CorpusRows = Iterable<CorpusRow> | AsyncIterable<CorpusRow>;

export type LoadPhase = 'copy' | 'build' | 'index' | 'analyze' | 'prepare' | 'swap' | 'vacuum';

export interface LoadProgress {
  phase: LoadPhase;
  /** Rows streamed into the staging table so far (the copy phase reports it as it goes). */
  rows: number;
}

// The COPY text format escapes exactly these four characters.
const copyEscapes: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const needsCopyEscape = /[\\\n\r\t]/;
function copyText(value: string): string {
  return needsCopyEscape.test(value) ? value.replace(/[\\\n\r\t]/g, (c) => copyEscapes[c]!) : value;
}

function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

const chunkCharacters = 256 * 1024;
const progressEvery = 10_000;

/** Validates each row, gives it its id and turns the stream into COPY text chunks. */
export async function* copyChunks(
  rows: CorpusRows,
  counter: { rows: number },
  onProgress?: (progress: LoadProgress) => void,
): AsyncGenerator<string> {
  let chunk = '';
  for await (const row of rows) {
    const problem = problemWithRow(row);
    if (problem) throw new CorpusValidationError(`row ${counter.rows + 1}: ${problem}`);
    const fields = [
      String(counter.rows),
      row.id ?? quoteId(row.text, row.author),
      row.id === undefined ? 'f' : 't',
      copyText(row.text),
      copyText(row.author),
      copyText(row.category),
      row.secondary_category === null ? '\\N' : copyText(row.secondary_category),
      copyText(arrayLiteral(row.moods)),
      copyText(row.era),
      row.faith_tradition === null ? '\\N' : copyText(row.faith_tradition),
      String(row.score),
    ];
    chunk += `${fields.join('\t')}\n`;
    counter.rows++;
    if (chunk.length >= chunkCharacters) {
      yield chunk;
      chunk = '';
    }
    if (onProgress && counter.rows % progressEvery === 0) onProgress({ phase: 'copy', rows: counter.rows });
  }
  if (chunk) yield chunk;
}
