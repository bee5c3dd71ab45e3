import { textTable } from './textTable.js';

/** A list as a command prints it: the table's header and each row's cells, and the sentence for none. */
export interface ListLayout<Row> {
  readonly header: readonly string[];
  readonly cells: (row: Row) => readonly string[];
  readonly empty: string;
}

/** Every list command's output: `--json` prints the rows as JSON, no rows a sentence, else a text table. */
export function listOutput<Row>(rows: readonly Row[], json: boolean | undefined, layout: ListLayout<Row>): string {
  if (json) return JSON.stringify(rows, null, 2);
  if (rows.length === 0) return layout.empty;
  return textTable(layout.header, rows.map(layout.cells));
}
