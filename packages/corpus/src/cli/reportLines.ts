/** Shapes of the CLI's reports: values in one column. */

/** "label  value" lines whose values start in one column, however long the labels. */
export function labelledLines(rows: readonly (readonly [string, string])[], indent = '  '): string[] {
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${indent}${label.padEnd(width)}  ${value}`.trimEnd());
}
