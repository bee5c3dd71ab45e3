import { sql } from 'kysely';
import type { DatabaseHandle } from '@quotes/database';
import { labelledLines } from '../cli/reportLines.js';
import { counted } from '../cli/terminalText.js';
import { CorpusError } from '../errors.js';

/** What an import would do to the corpus, counted against the quotes loaded now. */
export interface ImportImpact {
  readonly mode: 'replace' | 'append';
  /** Quotes loaded now. */
  readonly current: number;
  /** Distinct quotes in the file. */
  readonly incoming: number;
  /** File quotes not loaded yet. */
  readonly added: number;
  /** File quotes already loaded: rewritten by a replace; left as they are by an append. */
  readonly replaced: number;
  readonly alreadyLoaded: number;
  /** Loaded quotes the file lacks: gone after a replace. */
  readonly removed: number;
}

/** A replace removing more than this share of the corpus needs the operator's confirmation. */
export const removalNeedingConfirmation = 0.5;

const idsPerQuery = 10_000;

export async function importImpact(
  handle: DatabaseHandle,
  ids: ReadonlySet<string>,
  mode: 'replace' | 'append',
): Promise<ImportImpact> {
  const { db } = handle;
  const current = Number(
    (
      await db
        .selectFrom('quotes')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .executeTakeFirstOrThrow()
    ).count,
  );
  let present = 0;
  const all = [...ids];
  for (let start = 0; start < all.length; start += idsPerQuery) {
    const chunk = all.slice(start, start + idsPerQuery);
    const row = await db
      .selectFrom('quotes')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where(sql<boolean>`id = ANY(${chunk}::text[])`)
      .executeTakeFirstOrThrow();
    present += Number(row.count);
  }
  const added = ids.size - present;
  return mode === 'replace'
    ? {
        mode,
        current,
        incoming: ids.size,
        added,
        replaced: present,
        alreadyLoaded: present,
        removed: current - present,
      }
    : { mode, current, incoming: ids.size, added, replaced: 0, alreadyLoaded: present, removed: 0 };
}

const number = (value: number) => value.toLocaleString('en-US');
const percentOf = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part * 100) / whole));

export function impactLines(impact: ImportImpact, dryRun: boolean): string[] {
  const would = dryRun ? 'would be ' : '';
  const after = impact.mode === 'replace' ? impact.incoming : impact.current + impact.added;
  return [
    `  against the ${counted(impact.current, 'quote')} loaded now (${impact.mode}):`,
    ...labelledLines(
      [
        [`${would}added`, number(impact.added)],
        impact.mode === 'replace'
          ? [`${would}replaced`, number(impact.replaced)]
          : ['already loaded', `${number(impact.alreadyLoaded)} (kept as they are)`],
        [
          `${would}removed`,
          `${number(impact.removed)}${impact.removed > 0 ? ` (${percentOf(impact.removed, impact.current)}% of the corpus)` : ''}`,
        ],
      ],
      '    ',
    ),
    `    corpus ${dryRun ? 'would be' : 'will be'} ${counted(after, 'quote')}`,
  ];
}

/** Whether a replace removes more than half the corpus: the operator must confirm it. */
export function needsConfirmation(impact: ImportImpact): boolean {
  return impact.mode === 'replace' && impact.removed > impact.current * removalNeedingConfirmation;
}

export function removalSummary(impact: ImportImpact): string {
  return (
    `this replace would remove ${number(impact.removed)} of ${number(impact.current)} quotes ` +
    `(${percentOf(impact.removed, impact.current)}%) and leave ${number(impact.incoming)}`
  );
}

export function removalRefused(
  impact: ImportImpact,
  hint = 'check with --dry-run, then pass --yes (or use --mode append)',
): CorpusError {
  return new CorpusError(`refused: ${removalSummary(impact)}; ${hint}`);
}
