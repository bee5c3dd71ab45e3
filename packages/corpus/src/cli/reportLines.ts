/** Shapes of the CLI's reports: values in one column, counts with the right noun. */

const number = (value: number) => value.toLocaleString('en-US');

/** "label  value" lines whose values start in one column, however long the labels. */
export function labelledLines(rows: readonly (readonly [string, string])[], indent = '  '): string[] {
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${indent}${label.padEnd(width)}  ${value}`.trimEnd());
}

/** "1 row", "5 rows", "1,200 quotes". */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${number(count)} ${count === 1 ? singular : plural}`;
}
