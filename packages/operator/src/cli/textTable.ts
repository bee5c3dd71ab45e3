import { visibleText } from '@quotes/text-rules';

/** A plain aligned table for a terminal: the header, a rule, one line per row; every cell shown as written (visibleText). */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = rows.map((row) => row.map(visibleText));
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((row) => (row[column] ?? '').length)),
  );
  const line = (values: readonly string[]) =>
    values
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}
