import { filterNames } from './filterResolution.js';
import type { PageRequest } from './pagination.js';

/**
 * A page of a filter as a sweep is read from it: the filters given (names in a fixed order,
 * values as sent, lower case), the offset and the limit, `category=grief|200|100`.
 */
export function pageSighting(query: Readonly<Record<string, unknown>>, page: PageRequest): string {
  let filters = '';
  for (const name of filterNames) {
    const value = query[name];
    if (typeof value === 'string') filters += `${filters === '' ? '' : '&'}${name}=${value.toLowerCase()}`;
  }
  return `${filters}|${page.offset}|${page.limit}`;
}

/** A page sighting read back: its filters, offset and limit. */
export function parsePageSighting(value: string): { filters: string; offset: number; limit: number } | undefined {
  const match = /^(.*)\|(\d+)\|(\d+)$/.exec(value);
  return match ? { filters: match[1]!, offset: Number(match[2]), limit: Number(match[3]) } : undefined;
}
