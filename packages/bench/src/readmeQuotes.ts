import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type BenchReport, markdownReport, summaryLine } from './report.js';

/** A README block that quotes a run's results, between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`. */
export interface ReadmeQuote {
  readme: string;
  name: string;
  content: string;
}

/** The results the READMEs quote, rendered from one run's report (results/latest.json). */
export function readmeQuotes(report: BenchReport): ReadmeQuote[] {
  return [
    {
      readme: fileURLToPath(new URL('../README.md', import.meta.url)),
      name: 'latest',
      content: markdownReport(report),
    },
    {
      readme: fileURLToPath(new URL('../../../README.md', import.meta.url)),
      name: 'summary',
      content: `${summaryLine(report)}\n`,
    },
  ];
}

/** `text` with the named block's content replaced by `content`; a README without the block is an error. */
export function withQuote(text: string, name: string, content: string): string {
  const open = `<!-- bench:${name} -->\n`;
  const close = `<!-- /bench:${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close, start);
  if (start < 0 || end < 0) throw new Error(`no ${open.trim()} ... ${close} block`);
  return text.slice(0, start + open.length) + content + text.slice(end);
}

/** Rewrites every quoted block from the report at `reportPath`. */
export async function quoteResults(reportPath: string): Promise<string[]> {
  const report = JSON.parse(await readFile(reportPath, 'utf8')) as BenchReport;
  const written: string[] = [];
  for (const quote of readmeQuotes(report)) {
    const text = await readFile(quote.readme, 'utf8');
    const quoted = withQuote(text, quote.name, quote.content);
    if (quoted !== text) {
      await writeFile(quote.readme, quoted);
      written.push(quote.readme);
    }
  }
  return written;
}
