/** What changed between two JSON views of an audit entry, as `field: old -> new` (the whole view when one side is missing). */
export function changeText(before: unknown, after: unknown): string {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(before) || !isObject(after)) return JSON.stringify(after ?? before ?? null);
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => `${field}: ${JSON.stringify(before[field] ?? null)} -> ${JSON.stringify(after[field] ?? null)}`)
    .join('; ');
}
