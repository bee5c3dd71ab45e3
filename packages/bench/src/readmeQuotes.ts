import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchReport, markdownReport, summaryLine, svgChart } from './report.js';

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

/** Writes `content` to `file` unless it holds it already; says whether it wrote. */
async function rewrite(file: string, content: string): Promise<boolean> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === content) return false;
  await writeFile(file, content);
  return true;
}

/**
 * Renders the report at `reportPath` again beside it (latest.md, latest.svg), so a change of the
 * report's layout reaches the committed run without running it again, and rewrites every quoted
 * block from it. Returns the files it changed.
 */
export async function quoteResults(reportPath: string): Promise<string[]> {
  const report = JSON.parse(await readFile(reportPath, 'utf8')) as BenchReport;
  const written: string[] = [];
  const folder = dirname(reportPath);
  const renderings: Array<[string, string]> = [
    [join(folder, 'latest.md'), markdownReport(report)],
    [join(folder, 'latest.svg'), svgChart(report)],
  ];
  for (const [file, content] of renderings) if (await rewrite(file, content)) written.push(file);
  for (const quote of readmeQuotes(report)) {
    const text = await readFile(quote.readme, 'utf8');
    if (await rewrite(quote.readme, withQuote(text, quote.name, quote.content))) written.push(quote.readme);
  }
  return written;
}
