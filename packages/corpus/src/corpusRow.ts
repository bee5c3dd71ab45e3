import { taxonomy } from '@quotes/contract';
import type { QuotesTable } from '@quotes/database';

/**
 * One quote as the loaders take it: the quotes table's own columns (the rest are computed on
 * load), taxonomy values spelled exactly as in the contract.
 */
export type CorpusRow = Pick<
  QuotesTable,
  'text' | 'author' | 'category' | 'secondary_category' | 'moods' | 'era' | 'faith_tradition' | 'score'
> & {
  /**
   * The quote's id when a row brings its own (a corrected row of a review file): otherwise it is
   * quoteId(text, author). On append, a row with an id replaces the quote of that id.
   */
  id?: string;
};

/**
 * Limits a row must respect. The text bounds match the quotes table's CHECK (1..5000) but refuse
 * fragments shorter than a word, which are always scraping accidents.
 */
export const rowLimits = Object.freeze({
  textMinCharacters: 3,
  textMaxCharacters: 5000,
  authorMaxCharacters: 300,
  maxMoods: 8,
  /** Far above any real curation scale, far below where a real (float4) column overflows. */
  maxScore: 1_000_000,
});

const categories = new Set(taxonomy.categories);
const moods = new Set(taxonomy.moods);
const eras = new Set(taxonomy.eras);
const faiths = new Set(taxonomy.faithTraditions);

function characters(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** The first problem with a row, or null when it can be loaded as is. */
export function problemWithRow(row: CorpusRow): string | null {
  if (typeof row.text !== 'string' || row.text.trim() === '') return 'empty text';
  if (row.text.includes('\u0000')) return 'text contains a NUL character';
  const textLength = characters(row.text);
  if (textLength < rowLimits.textMinCharacters)
    return `text is ${textLength} characters (at least ${rowLimits.textMinCharacters})`;
  if (textLength > rowLimits.textMaxCharacters)
    return `text is ${textLength} characters (at most ${rowLimits.textMaxCharacters})`;
  if (typeof row.author !== 'string' || row.author.trim() === '') return 'missing author';
  if (row.author.includes('\u0000')) return 'author contains a NUL character';
  if (characters(row.author) > rowLimits.authorMaxCharacters)
    return `author is longer than ${rowLimits.authorMaxCharacters} characters`;
  if (!categories.has(row.category)) return `unknown category '${row.category}'`;
  if (row.secondary_category !== null) {
    if (!categories.has(row.secondary_category)) return `unknown secondary category '${row.secondary_category}'`;
    if (row.secondary_category === row.category) return 'secondary category equals the category';
  }
  if (!Array.isArray(row.moods) || row.moods.length === 0) return 'no mood';
  if (row.moods.length > rowLimits.maxMoods) return `more than ${rowLimits.maxMoods} moods`;
  for (const mood of row.moods) if (!moods.has(mood)) return `unknown mood '${mood}'`;
  if (new Set(row.moods).size !== row.moods.length) return 'a mood is repeated';
  if (!eras.has(row.era)) return `unknown era '${row.era}'`;
  if (row.faith_tradition !== null && !faiths.has(row.faith_tradition))
    return `unknown faith tradition '${row.faith_tradition}'`;
  if (typeof row.score !== 'number' || !Number.isFinite(row.score) || row.score < 0)
    return `score must be a number >= 0 (got ${row.score})`;
  if (row.score > rowLimits.maxScore) return `score ${row.score} is above ${rowLimits.maxScore}`;
  return null;
}
