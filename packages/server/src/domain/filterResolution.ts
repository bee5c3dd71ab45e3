import { taxonomy } from '@quotes/contract';
import type { ParameterError } from '../problems.js';

/** The filter parameters, in the order the contract lists them. `limit`/`offset` are not filters. */
export const filterNames = ['category', 'mood', 'length', 'era', 'faith'] as const;
export type FilterName = (typeof filterNames)[number];

export type RawFilters = Partial<Record<FilterName, string>>;

/** A filter resolved against the taxonomy: only taxonomy values, ready for an index-backed query. */
export interface ResolvedFilter {
  /** Primary categories that match (any of them), sorted; null when not filtered. */
  readonly categories: readonly string[] | null;
  /** Moods that match (a quote having any of them), sorted; null when not filtered. */
  readonly moods: readonly string[] | null;
  readonly length: string | null;
  readonly era: string | null;
  readonly faith: string | null;
  /** The filters the caller gave, each counting once against the plan. */
  readonly given: readonly FilterName[];
}

export type FilterResolution = { ok: true; filter: ResolvedFilter } | { ok: false; errors: ParameterError[] };

// A space may arrive as '+', even percent-encoded; no taxonomy value contains '+'.
function normalised(text: string): string {
  return text.replaceAll('+', ' ').toLowerCase();
}

function substringMatches(text: string, values: readonly string[]): string[] {
  const needle = normalised(text);
  return values.filter((value) => value.toLowerCase().includes(needle)).sort();
}

function exactMatch(text: string, values: readonly string[]): string | undefined {
  const needle = normalised(text);
  return values.find((value) => value.toLowerCase() === needle);
}

const mustBeOneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;

/**
 * Resolves the caller's filter text against the taxonomy (step 3 of the order of checks):
 * category and mood by case-insensitive substring, length, era and faith by case-insensitive
 * equality. Every bad parameter is reported, not just the first.
 */
export function resolveFilters(raw: RawFilters): FilterResolution {
  const errors: ParameterError[] = [];
  let categories: string[] | null = null;
  let moods: string[] | null = null;
  if (raw.category !== undefined) {
    categories = substringMatches(raw.category, taxonomy.categories);
    if (categories.length === 0) {
      errors.push({
        parameter: 'category',
        message: 'matches no category (give part of a category name, e.g. "grief"; see /v1/quotes-categories)',
      });
    }
  }
  if (raw.mood !== undefined) {
    moods = substringMatches(raw.mood, taxonomy.moods);
    if (moods.length === 0)
      errors.push({ parameter: 'mood', message: `matches no mood (${taxonomy.moods.join(', ')})` });
  }
  const exact = (name: 'length' | 'era' | 'faith', values: readonly string[]): string | null => {
    const text = raw[name];
    if (text === undefined) return null;
    const value = exactMatch(text, values);
    if (value === undefined) {
      errors.push({ parameter: name, message: mustBeOneOf(values) });
      return null;
    }
    return value;
  };
  const length = exact('length', taxonomy.lengths);
  const era = exact('era', taxonomy.eras);
  const faith = exact('faith', taxonomy.faithTraditions);
  if (errors.length > 0) return { ok: false, errors };
  const given = filterNames.filter((name) => raw[name] !== undefined);
  return { ok: true, filter: { categories, moods, length, era, faith, given } };
}

/** True when no filter narrows the corpus: the whole corpus, in rank order, is the match set. */
export function isUnfiltered(filter: ResolvedFilter): boolean {
  return (
    filter.categories === null &&
    filter.moods === null &&
    filter.length === null &&
    filter.era === null &&
    filter.faith === null
  );
}

/**
 * A stable identity for the match set: filters given with different text that resolve to the
 * same taxonomy values (`grief`, `GRIEF`, `Grief & Loss`) share one cache entry.
 */
export function matchSetKey(filter: ResolvedFilter): string {
  return JSON.stringify([filter.categories, filter.moods, filter.length, filter.era, filter.faith]);
}

/** "category=Grief & Loss, era=Ancient" for a 404's detail, in the values the caller gave. */
export function describeFilters(raw: RawFilters): string {
  return filterNames
    .filter((name) => raw[name] !== undefined)
    .map((name) => `${name}=${raw[name]}`)
    .join(', ');
}
