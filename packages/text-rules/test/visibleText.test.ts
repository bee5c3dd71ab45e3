import { describe, expect, it } from 'vitest';
import { visibleLines, visibleText } from '../src/index.js';

describe('text shown as written', () => {
  it.for([
    ['bidi override', 'Evil\u202Eroc', 'Evil\\u202eroc'],
    ['bidi isolate', 'a\u2067b\u2069', 'a\\u2067b\\u2069'],
    ['arabic letter mark', 'a\u061Cb', 'a\\u061cb'],
    ['zero-width space and joiner', 'ad\u200Bmi\u200Dn', 'ad\\u200bmi\\u200dn'],
    ['word joiner and BOM', '\u2060x\uFEFF', '\\u2060x\\ufeff'],
    ['soft hyphen', 'co\u00ADop', 'co\\u00adop'],
    ['tag character', 'flag\u{E0067}', 'flag\\udb40\\udc67'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
    ['C0 controls', 'a\nb\tc\rd\u001b[2Je\u0000', 'a\\nb\\tc\\rd\\e[2Je\\u0000'],
    ['C1 controls', 'x\u009b1m\u0085', 'x\\u009b1m\\u0085'],
  ])('makes a %s visible', ([, text, shown]) => {
    expect(visibleText(text!)).toBe(shown);
  });

  it('leaves letters, accents, emoji and punctuation alone', () => {
    const text = 'Zoë’s Café 🍰 — «naïve» 東京 عربى';
    expect(visibleText(text)).toBe(text);
  });

  it('keeps the line breaks of whole output, and JSON parsing to the same value', () => {
    expect(visibleLines('one\ntwo\u001b three')).toBe('one\ntwo\\e three');
    const value = { name: 'x\u009b\u202Ey\nz\u200B\u{E0067}' };
    const shown = visibleLines(JSON.stringify(value, null, 2));
    expect(shown).not.toMatch(/[\u202E\u200B\u009b]/u);
    expect(JSON.parse(shown)).toEqual(value);
  });
});
