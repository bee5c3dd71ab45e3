import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvLine, csvTable, formulaSafe, withoutFormulaGuard } from '../src/index.js';

// Cells a spreadsheet would run (OWASP "CSV injection"), each with what the writer must make of it.
const formulas = [
  '=HYPERLINK("http://attacker.example","x")',
  '+1+cmd|" /C calc"!A0',
  '-2+3',
  '@SUM(A1:A2)',
  '\t=1+1',
  '\r=1+1',
  '  =1+1',
  '\u00a0@x',
  '\uFF1D1+1',
  '\uFF0B1',
  '\uFF0D1',
  '\uFF20SUM(A1)',
  "'=already guarded once",
];

describe('the CSV writer', () => {
  it.for(formulas)('writes %j as text: one apostrophe before it', (cell) => {
    const written = (parse(csvLine([cell]), { relax_column_count: true }) as string[][])[0]?.[0];
    expect(written).toBe(`'${cell}`);
    expect(withoutFormulaGuard(written!)).toBe(cell);
  });

  it.for(['plain', 'a = b', 'it is -5 out', "'tis the season", '', 'e-mail@example.com', 'x\n=y'])(
    'leaves %j as it is',
    (cell) => {
      expect(formulaSafe(cell)).toBe(cell);
      expect(withoutFormulaGuard(cell)).toBe(cell);
    },
  );

  it('quotes what needs quoting (RFC 4180) and keeps numbers, negative ones included', () => {
    const text = csvTable(
      ['name', 'calls', 'limit'],
      [
        ['Acme, "the" Co\nLtd', -5, null],
        [' padded ', 0, 12],
      ],
    );
    expect(text).toBe('name,calls,limit\n"Acme, ""the"" Co\nLtd",-5,\n" padded ",0,12\n');
    expect(parse(text, { columns: true })).toEqual([
      { name: 'Acme, "the" Co\nLtd', calls: '-5', limit: '' },
      { name: ' padded ', calls: '0', limit: '12' },
    ]);
  });
});
