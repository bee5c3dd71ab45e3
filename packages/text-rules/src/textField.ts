/**
 * What a text field accepts, the same at every door (the public form, the operator's CLI and
 * console, the mail that repeats it): trimmed text of 1 to `maxCharacters` characters (Unicode
 * code points, as PostgreSQL's char_length and JSON Schema's maxLength count them), with none of
 * the characters that can make text read or print as something else.
 */
export interface TextFieldRule {
  readonly maxCharacters: number;
  /** Several lines (a textarea): line breaks and tabs are allowed, CR LF and CR become LF. */
  readonly lines?: boolean;
}

export type TextFieldCheck =
  | { readonly text: string }
  | { readonly refused: 'length' | 'character'; readonly message: string; readonly codePoint?: number };

/**
 * Refused, each for a reason a person can read:
 * - controls (C0, C1, DEL): escape sequences move a terminal's cursor, a newline forges a row;
 * - bidirectional controls: U+202E shows "exe.txt" for "txt.exe" and reorders a table's columns;
 * - line and paragraph separators (U+2028, U+2029): a line break to some readers, none to others;
 * - other invisible format characters (zero-width space, soft hyphen, BOM, tag characters);
 * - unpaired surrogates: not a character; UTF-8 (the database, mail) cannot hold one.
 * Zero-width joiner and non-joiner stay: emoji sequences and Persian or Indic names need them.
 */
const bidirectionalControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const separators = /[\u2028\u2029]/u;
const refusedOnOneLine = /[\p{Cc}\p{Cs}\u2028\u2029]|(?![\u200c\u200d])\p{Cf}/u;
const refusedInLines = /[^\P{Cc}\t\n]|\p{Cs}|[\u2028\u2029]|(?![\u200c\u200d])\p{Cf}/u;
const refusedEverywhere = new RegExp(refusedOnOneLine.source, 'gu');
/** A subdivision flag (England, Scotland, Wales) is U+1F3F4 and tag characters: an emoji, not hidden text. */
const emojiTagSequence = /\u{1f3f4}[\u{e0020}-\u{e007e}]+\u{e007f}/gu;

const codePointName = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

function characterMessage(character: string): string {
  const codePoint = character.codePointAt(0)!;
  const code = codePointName(codePoint);
  if (character === '\n') return `contains a control character (a line break, ${code}); write it on one line`;
  if (/\p{Cc}/u.test(character)) return `contains a control character (${code})`;
  if (/\p{Cs}/u.test(character)) return `contains a broken character (an unpaired surrogate, ${code})`;
  if (bidirectionalControls.test(character))
    return `contains a bidirectional control character (${code}), which changes the order text is shown in`;
  if (separators.test(character)) return `contains a line or paragraph separator character (${code})`;
  return `contains an invisible formatting character (${code})`;
}

/** The first character the rule refuses, if any. */
export function refusedCharacterIn(text: string, rule: Pick<TextFieldRule, 'lines'> = {}): string | undefined {
  const pattern = rule.lines ? refusedInLines : refusedOnOneLine;
  return pattern.exec(text.replace(emojiTagSequence, ''))?.[0];
}

/** The text as it is kept (trimmed, line breaks as LF), or why it is refused, in words. */
export function checkTextField(value: string, rule: TextFieldRule): TextFieldCheck {
  const lines = rule.lines === true;
  const text = (lines ? value.replace(/\r\n?/g, '\n') : value).trim();
  const characters = [...text].length;
  if (characters < 1 || characters > rule.maxCharacters)
    return {
      refused: 'length',
      message: `must be 1 to ${rule.maxCharacters} characters${characters > 0 ? ` (this has ${characters})` : ''}`,
    };
  const refused = refusedCharacterIn(text, rule);
  if (refused !== undefined)
    return { refused: 'character', message: characterMessage(refused), codePoint: refused.codePointAt(0)! };
  return { text };
}

/** What the field accepts, in the words the form shows beside it. */
export function textFieldHint(rule: TextFieldRule): string {
  const size = `at most ${rule.maxCharacters.toLocaleString('en-US')} characters`;
  return rule.lines
    ? `Plain text, ${size}; line breaks are fine, but no control or invisible formatting characters (such as right-to-left marks).`
    : `One line of plain text, ${size}, with no control or invisible formatting characters (such as right-to-left marks).`;
}

/**
 * Text for a one-line message (an error naming what was refused): every refused character
 * written as \u{...}, so a message cannot itself reorder or break the line it is printed on.
 */
export function withRefusedShown(text: string): string {
  return text.replace(refusedEverywhere, (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`);
}
