/**
 * Text from the database or the operator on its way to a terminal: control characters (a
 * newline that would forge a row, ESC and CSI that would drive the terminal) and bidirectional
 * overrides are shown as escapes instead of acting.
 */
const unprintable = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

export function printable(text: string): string {
  return text.replace(
    unprintable,
    // \uXXXX: also valid inside a JSON string, so --json output stays JSON after this pass.
    (character) => named[character] ?? `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`,
  );
}

/** Whole output, line by line: the line breaks the CLI wrote stay, anything else is escaped. */
export function printableLines(text: string): string {
  return text.split('\n').map(printable).join('\n');
}

/** "1 row", "5 rows", "1,200 quotes": a count with its noun in the right number. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}
