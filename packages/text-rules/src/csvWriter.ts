import { stringify } from 'csv-stringify/sync';

/**
 * Every CSV the tools write (billing reports, usage history, the corpus review file) is written
 * here: RFC 4180 quoting by csv-stringify, and no cell a spreadsheet would run as a formula.
 */
export type CsvCell = string | number | null | undefined;

/**
 * What a spreadsheet reads as the start of a formula (OWASP "CSV injection"): `=`, `+`, `-`, `@`
 * and their full-width forms, also after leading whitespace, or a tab or carriage return first.
 * Leading apostrophes are looked through, so a cell that already starts with one followed by a
 * trigger is guarded again and the guard stays reversible.
 */
const formulaStart = /^'*(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

/** The cell as a spreadsheet will show it as text: prefixed with `'` where it would be a formula. */
export function formulaSafe(cell: string): string {
  return formulaStart.test(cell) ? `'${cell}` : cell;
}

/** The cell as it was before formulaSafe: the importer reads back a file this module wrote. */
export function withoutFormulaGuard(cell: string): string {
  return cell.startsWith("'") && formulaStart.test(cell.slice(1)) ? cell.slice(1) : cell;
}

// Quoted besides what RFC 4180 asks: cells with edge whitespace (a re-import keeps it) and with a
// carriage return (csv-stringify leaves a lone one bare; readers take it for a line end). Numbers
// stay numbers (a negative number is data, not a formula); records end in \n like the CLI's output.
const options = { quoted_match: /^\s|\s$|\r/, record_delimiter: 'unix' } as const;

/** One CSV record, with its line end. */
export function csvLine(cells: readonly CsvCell[]): string {
  return stringify([cells.map((cell) => (typeof cell === 'string' ? formulaSafe(cell) : (cell ?? '')))], options);
}

/** A header record, then one record per row. */
export function csvTable(header: readonly string[], rows: Iterable<readonly CsvCell[]>): string {
  let text = csvLine(header);
  for (const row of rows) text += csvLine(row);
  return text;
}
