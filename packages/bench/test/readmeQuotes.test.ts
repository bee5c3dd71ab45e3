import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readmeQuotes, withQuote } from '../src/readmeQuotes.js';
import { type BenchReport, markdownReport } from '../src/report.js';

const results = new URL('../results/', import.meta.url);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const report = JSON.parse(await readFile(new URL('latest.json', results), 'utf8')) as BenchReport;

/** The figures in the READMEs are the committed run's, rendered by the bench, so they cannot drift from it. */
describe('the results the READMEs quote', () => {
  it('results/latest.md is the report of results/latest.json', async () => {
    expect(await readFile(new URL('latest.md', results), 'utf8')).toBe(markdownReport(report));
  });

  for (const quote of readmeQuotes(report))
    it(`${relative(root, quote.readme)} quotes the ${quote.name} of results/latest.json exactly (npm run quote-results)`, async () => {
      const text = await readFile(quote.readme, 'utf8');
      expect(text).toContain(quote.content);
      expect(withQuote(text, quote.name, quote.content)).toBe(text);
    });

  it("the bench README's own text stays short (the quoted run grows with the figures it holds)", async () => {
    const text = withQuote(await readFile(new URL('../README.md', import.meta.url), 'utf8'), 'latest', '');
    expect(text.trimEnd().split('\n').length).toBeLessThanOrEqual(130);
  });

  it('a README without the block is an error, not a silent pass', () => {
    expect(() => withQuote('# no block\n', 'latest', 'x\n')).toThrow(/no <!-- bench:latest -->/);
    expect(withQuote('a\n<!-- bench:x -->\nold\n<!-- /bench:x -->\nb\n', 'x', 'new\n')).toBe(
      'a\n<!-- bench:x -->\nnew\n<!-- /bench:x -->\nb\n',
    );
  });
});
