import { describe, expect, it } from 'vitest';
import { visibleLines as printableLines, visibleText as printable } from '@quotes/text-rules';
import { textTable } from '../../src/cli/textTable.js';
import { OperatorError } from '@quotes/accounts';
import { requireClientName, requireEmail } from '@quotes/accounts';

describe('e-mail addresses', () => {
  it.for(['ann@example.com', 'Ann+x@Example.com', 'first.last@sub.example.co.uk', ' padded@example.org '])(
    'accepts %j',
    (address) => {
      expect(requireEmail(address)).toBe(address.trim());
    },
  );

  it.for([
    'ann',
    'ann@example',
    'ann@@example.com',
    'a@b@example.com',
    'Ann <ann@example.com>',
    '"a@b"@example.com',
    'ann@[127.0.0.1]',
    'ann@example.com\r\nBcc: all@example.com',
    'ann\u001b@example.com',
    'ann @example.com',
    `${'a'.repeat(250)}@example.com`,
  ])('refuses %j in one line', (address) => {
    expect(() => requireEmail(address)).toThrow(OperatorError);
    try {
      requireEmail(address);
    } catch (error) {
      expect(printable((error as Error).message)).toBe((error as Error).message);
    }
  });
});

describe('client names', () => {
  it('keeps ordinary names, emoji and accents', () => {
    expect(requireClientName('  Zoë’s Café 🍰 ')).toBe('Zoë’s Café 🍰');
  });

  it.for(['x\nk_FAKE', 'Evil\u001b[31m', 'tab\there', 'bidi\u202Eevil', 'c1\u009b', ''])('refuses %j', (name) => {
    expect(() => requireClientName(name)).toThrow(OperatorError);
  });
});

describe('what reaches the terminal', () => {
  it('shows control characters as escapes and leaves the rest', () => {
    expect(printable('a\nb\tc\u001b[2Jd\u009be\u202Ef Zoë')).toBe('a\\nb\\tc\\e[2Jd\\u009be\\u202ef Zoë');
    expect(printableLines('line one\nline\u001b two')).toBe('line one\nline\\e two');
  });

  it('keeps JSON valid', () => {
    const json = printableLines(JSON.stringify({ name: 'x\u009b\u202Ey\nz' }));
    expect(JSON.parse(json)).toEqual({ name: 'x\u009b\u202Ey\nz' });
  });

  it('cannot be given a forged row', () => {
    const table = textTable(['ID', 'CLIENT'], [['k_1', 'x\nk_FAKE  spoofed']]);
    expect(table.split('\n')).toHaveLength(3);
    expect(table).toContain('x\\nk_FAKE  spoofed');
  });
});
