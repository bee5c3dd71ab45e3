import { describe, expect, it } from 'vitest';
import { checkTextField, refusedCharacterIn, textFieldHint, withRefusedShown } from '../src/index.js';

const oneLine = { maxCharacters: 10 };
const lines = { maxCharacters: 10, lines: true };

describe('a text field', () => {
  it('keeps letters of any script, emoji (joined ones and subdivision flags), accents, trimmed', () => {
    for (const text of ['Zoë', '👩‍💻', 'مهسا‌ی', 'क्‍ष', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', 'a\u00a0b', '東京'])
      expect(checkTextField(` ${text}\t`, oneLine)).toEqual({ text });
  });

  it('counts characters (code points), as PostgreSQL and JSON Schema do, not UTF-16 units', () => {
    expect(checkTextField('😀'.repeat(10), oneLine)).toEqual({ text: '😀'.repeat(10) });
    expect(checkTextField('😀'.repeat(11), oneLine)).toEqual({
      refused: 'length',
      message: 'must be 1 to 10 characters (this has 11)',
    });
    expect(checkTextField('  ', oneLine)).toEqual({ refused: 'length', message: 'must be 1 to 10 characters' });
  });

  it.for<[string, string]>([
    ['a\u202Eb', 'contains a bidirectional control character (U+202E), which changes the order text is shown in'],
    ['a\u2066b', 'contains a bidirectional control character (U+2066), which changes the order text is shown in'],
    ['a\u200Fb', 'contains a bidirectional control character (U+200F), which changes the order text is shown in'],
    ['a\u2028b', 'contains a line or paragraph separator character (U+2028)'],
    ['a\u2029b', 'contains a line or paragraph separator character (U+2029)'],
    ['a\u200Bb', 'contains an invisible formatting character (U+200B)'],
    ['a\u00ADb', 'contains an invisible formatting character (U+00AD)'],
    ['a\u{E0041}b', 'contains an invisible formatting character (U+E0041)'],
    ['a\u001b[2Jb', 'contains a control character (U+001B)'],
    ['a\u0085b', 'contains a control character (U+0085)'],
    ['a\u007fb', 'contains a control character (U+007F)'],
    ['a\tb', 'contains a control character (U+0009)'],
    ['a\nb', 'contains a control character (a line break, U+000A); write it on one line'],
    ['a\ud800b', 'contains a broken character (an unpaired surrogate, U+D800)'],
  ])('refuses %j on one line, saying why in words', ([text, message]) => {
    expect(checkTextField(text, oneLine)).toMatchObject({ refused: 'character', message });
  });

  it('takes line breaks and tabs in a field of several lines, CR LF and CR kept as LF', () => {
    expect(checkTextField('a\r\nb\rc\td', lines)).toEqual({ text: 'a\nb\nc\td' });
    expect(checkTextField('a\u2028b', lines)).toMatchObject({ refused: 'character' });
    expect(checkTextField('a\u000bb', lines)).toMatchObject({ refused: 'character' });
    expect(refusedCharacterIn('a\nb', { lines: true })).toBeUndefined();
  });

  it('says what it accepts in the words the form shows', () => {
    expect(textFieldHint({ maxCharacters: 1000, lines: true })).toMatch(
      /at most 1,000 characters; line breaks are fine/,
    );
    expect(textFieldHint({ maxCharacters: 200 })).toMatch(/^One line of plain text, at most 200 characters/);
  });

  it('shows what it refused escaped, so a message cannot reorder or break its own line', () => {
    expect(withRefusedShown('"x\u202Ey\u2028z\u009b" 👩‍💻')).toBe('"x\\u{202e}y\\u{2028}z\\u{9b}" 👩‍💻');
  });
});
