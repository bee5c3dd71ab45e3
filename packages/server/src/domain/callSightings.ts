import { filterNames } from './filterResolution.js';
import type { PageRequest } from './pagination.js';

/**
 * The client network of an address, as the signs of sharing and trial rotation count them: an
 * IPv4 /24 (`203.0.113.0/24`) or an IPv6 /48; undefined for an address it cannot read.
 */
export function clientNetwork(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(address);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (!address.includes(':')) return undefined;
  const [head = ''] = address.split('::');
  const groups = head.split(':').filter((group) => group !== '');
  while (groups.length < 3) groups.push('0');
  return `${groups.slice(0, 3).join(':').toLowerCase()}::/48`;
}

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
