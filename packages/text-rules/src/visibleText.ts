/**
 * Text shown to the operator (console pages, CLI tables, lists and messages) is shown as written:
 * characters that act instead of showing are written out as escapes. That is every control
 * character (C0 and C1: a newline that would forge a row, ESC and CSI that drive a terminal),
 * every format character (Unicode Cf: bidirectional overrides and isolates that reverse a name,
 * zero-width spaces and joiners, soft hyphens, tags) and the line and paragraph separators.
 */
const invisible = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

/** `\uXXXX` per UTF-16 unit (a surrogate pair beyond the BMP): the escape JSON reads back too. */
function escaped(character: string): string {
  let text = '';
  for (let index = 0; index < character.length; index++)
    text += `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`;
  return text;
}

/**
 * The text with each such character as an escape (`\n`, `\t`, `\r`, `\e`, else `\u202e`).
 * JSON.stringify already escapes every control character, so JSON passed through here still
 * parses to the same value.
 */
export function visibleText(text: string): string {
  return text.replace(invisible, (character) => named[character] ?? escaped(character));
}

/** Whole output, line by line: the line breaks the writer meant stay, anything else is escaped. */
export function visibleLines(text: string): string {
  return text.split('\n').map(visibleText).join('\n');
}
