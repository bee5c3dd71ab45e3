import { type GetRandomQuoteData, rules } from '@quotes/contract';
import type { ParameterError } from '@quotes/service-base/problems';

/** The filter parameters, as the contract types them (`limit`/`offset` are not filters). */
export type FilterName = keyof NonNullable<GetRandomQuoteData['query']>;

// Which ResolvedFilter field each filter fills: typed by the contract, so a filter renamed or
// added there fails typecheck here; its kind of match and its values come from `x-filter`.
const resolvedField = {
  category: 'categories',
  mood: 'moods',
  length: 'length',
  era: 'era',
  faith: 'faith',
} as const satisfies Record<FilterName, keyof ResolvedFilter>;

/** The filter parameters and their rules, in the order the contract declares them. */
const filterRules = rules.filters.map((rule) => {
  if (!Object.hasOwn(resolvedField, rule.name)) throw new Error(`the contract's filter ${rule.name} has no field here`);
  // Sorted and lower-cased once: every filtered call compares its text with all of them.
  const values = [...rule.values].sort();
  return {
    ...rule,
    name: rule.name as FilterName,
    lowered: values.map((value) => [value.toLowerCase(), value] as const),
  };
});
export const filterNames: readonly FilterName[] = filterRules.map((rule) => rule.name);

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

type LoweredValues = ReadonlyArray<readonly [lowered: string, value: string]>;

/** The values containing the text, sorted. */
function substringMatches(text: string, values: LoweredValues): string[] {
  const needle = normalised(text);
  const matches: string[] = [];
  for (let index = 0; index < values.length; index++) {
    const [lowered, value] = values[index]!;
    if (lowered.includes(needle)) matches.push(value);
  }
  return matches;
}

function exactMatch(text: string, values: LoweredValues): string | undefined {
  const needle = normalised(text);
  return values.find(([lowered]) => lowered === needle)?.[1];
}

/** What a substring filter matching nothing is told: the values when they fit on a line. */
function matchesNothing(name: string, values: readonly string[]): string {
  return values.length <= 10
    ? `matches no ${name} (${values.join(', ')})`
    : `matches no ${name} (give part of a ${name} name, e.g. "${values[0]?.split(' ')[0]?.toLowerCase()}"; see /v1/quotes-categories)`;
}

/**
 * Resolves the caller's filter text against the taxonomy (step 3 of the order of checks), as
 * each filter's `x-filter` in the contract says: by case-insensitive substring (any matching
 * value) or by case-insensitive equality. Every bad parameter is reported, not just the first.
 */
export function resolveFilters(raw: RawFilters): FilterResolution {
  const errors: ParameterError[] = [];
  const resolved: Record<keyof ResolvedFilter, unknown> = {
    categories: null,
    moods: null,
    length: null,
    era: null,
    faith: null,
    given: filterNames.filter((name) => raw[name] !== undefined),
  };
  for (const rule of filterRules) {
    const text = raw[rule.name];
    if (text === undefined) continue;
    if (rule.match === 'substring') {
      const matches = substringMatches(text, rule.lowered);
      if (matches.length === 0) errors.push({ parameter: rule.name, message: matchesNothing(rule.name, rule.values) });
      resolved[resolvedField[rule.name]] = matches;
    } else {
      const value = exactMatch(text, rule.lowered);
      if (value === undefined)
        errors.push({ parameter: rule.name, message: `must be one of ${rule.values.join(', ')}` });
      resolved[resolvedField[rule.name]] = value ?? null;
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, filter: resolved as unknown as ResolvedFilter };
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
