/** "1 row", "5 rows", "1,200 quotes": a count with its noun in the right number. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}
