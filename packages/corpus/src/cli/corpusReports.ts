import { visibleText } from '@quotes/text-rules';
import type { CorpusStats } from '../corpusStats.js';
import type { CorpusLoadReport } from '../loadCorpus.js';
import type { ImportReport } from '../import/importCorpus.js';
import { labelledLines } from './reportLines.js';
import { counted } from './terminalText.js';

const number = (value: number) => value.toLocaleString('en-US');

/** What the corpus commands print when they are done: a load, an import, the stats. */
export function categoryLines(byCategory: Record<string, number>): string[] {
  const touched = Object.entries(byCategory).filter(([, count]) => count > 0);
  if (touched.length === 0) return ['    (none)'];
  const width = Math.max(...touched.map(([name]) => name.length));
  return touched.map(([name, count]) => `    ${name.padEnd(width)} ${number(count).padStart(9)}`);
}

export function loadReportLines(report: CorpusLoadReport): string[] {
  return labelledLines([
    ['quotes', `${number(report.total)} (corpus version ${report.version})`],
    ['duplicates', number(report.duplicates)],
    [
      'time',
      `${report.seconds.toFixed(1)} s (${Object.entries(report.phaseSeconds)
        .map(([phase, seconds]) => `${phase} ${seconds.toFixed(1)} s`)
        .join(', ')})`,
    ],
    ...(report.servers.listening > 0
      ? [['servers', `${report.servers.answered} of ${report.servers.listening} indexed it before the swap`] as const]
      : []),
  ]);
}

type Row = readonly [string, string];

/** Where eras and moods came from, what was left out for its language, and what to curate next. */
function curationRows(report: ImportReport): Row[] {
  const parts = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([, count]) => count > 0)
      .map(([name, count]) => `${name} ${number(count)}`)
      .join(', ') || '(none)';
  const other = Object.values(report.otherLanguages).reduce((sum, count) => sum + count, 0);
  const rows: Row[] = [
    ['era from', parts(report.eraSources)],
    ['moods from', parts(report.moodSources)],
    ['first mood', parts(report.byMood)],
    [
      'other language',
      `${number(other)} skipped (corpus language ${report.language}${other > 0 ? `: ${parts(report.otherLanguages)}` : ''})`,
    ],
  ];
  if (report.defaultedAuthors.length > 0)
    rows.push([
      'era defaulted for',
      report.defaultedAuthors.map(({ author, count }) => `${author} (${number(count)})`).join(', '),
    ]);
  if (report.corrected > 0)
    rows.push(['corrected', `${counted(report.corrected, 'quote')} replaced by rows with their id`]);
  if (report.review)
    rows.push(['review file', `${report.review.file} (${counted(report.review.rows, 'row')} to check)`]);
  return rows;
}

export function importReportLines(report: ImportReport): string[] {
  const rows: Row[] = [
    ['rows read', number(report.read)],
    [report.dryRun ? 'would import' : 'imported', number(report.imported)],
    ['duplicates', number(report.duplicates)],
    ['invalid', `${number(report.invalid)}${report.invalid > 0 ? ' (skipped)' : ''}`],
  ];
  if (report.fallbackCategory > 0)
    rows.push([
      'no category tag',
      `${number(report.fallbackCategory)} (category from the words of the text, else the fallback; see CORPUS.md)`,
    ]);
  rows.push(...curationRows(report));
  if (report.unknownTags.length > 0)
    rows.push(['unknown tags', report.unknownTags.map(({ tag, count }) => `${tag} (${number(count)})`).join(', ')]);
  if (report.total !== null) rows.push(['corpus now', `${counted(report.total, 'quote')} (version ${report.version})`]);
  const lines = [
    `${report.dryRun ? 'Dry run of' : 'Imported'} ${visibleText(report.file)} (${report.format}, ${report.mode}) in ${report.seconds.toFixed(1)} s`,
    ...labelledLines(rows),
  ];
  if (report.errors.length > 0)
    lines.push('  first errors:', ...report.errors.map((error) => `    ${visibleText(error)}`));
  lines.push(`  ${report.dryRun ? 'would import' : 'imported'} by category:`, ...categoryLines(report.byCategory));
  return lines;
}

export function statsLines(stats: CorpusStats): string[] {
  const section = (title: string, counts: Record<string, number>) => {
    const width = Math.max(...Object.keys(counts).map((name) => name.length), 4);
    return [
      `${title}:`,
      ...Object.entries(counts).map(([name, count]) => `  ${name.padEnd(width)} ${number(count).padStart(9)}`),
    ];
  };
  const state = stats.state;
  const origin = !state
    ? 'never loaded'
    : `${visibleText(state.source)}${state.seed !== null ? ` (seed ${state.seed})` : ''}, version ${state.version}, loaded ${state.loadedAt}`;
  return [
    `Quotes: ${number(stats.total)}`,
    `Source: ${origin}`,
    `With a secondary category: ${number(stats.withSecondaryCategory)}`,
    ...section('By category', stats.byCategory),
    ...section('By mood (a quote counts under each of its moods)', stats.byMood),
    ...section('By era', stats.byEra),
    ...section('By length', stats.byLength),
    ...section('By faith tradition', { ...stats.byFaith, '(none)': stats.withoutFaith }),
  ];
}
