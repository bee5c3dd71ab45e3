import { loadContract } from '@quotes/contract';

function parameterDefault(name: 'Limit' | 'Offset'): number {
  const value = loadContract().components.parameters[name]?.schema.default;
  if (typeof value !== 'number')
    throw new Error(`openapi/quotes.yaml: components.parameters.${name} has no numeric default`);
  return value;
}

/** Defaults come from the contract, so the server cannot drift from what clients read there. */
export const defaultLimit = parameterDefault('Limit');
export const defaultOffset = parameterDefault('Offset');

export interface PageRequest {
  readonly limit: number;
  readonly offset: number;
}

/** Values above the key's largest page are clamped to it; the response says what was applied. */
export function applyPageLimits(requested: { limit?: number; offset?: number }, maxLimit: number): PageRequest {
  return { limit: Math.min(requested.limit ?? defaultLimit, maxLimit), offset: requested.offset ?? defaultOffset };
}

/** Positions [start, end) of the page within a match set of `total`, and whether more follow. */
export function pageWindow(total: number, page: PageRequest): { start: number; end: number; hasMore: boolean } {
  const start = Math.min(page.offset, total);
  const end = Math.min(page.offset + page.limit, total);
  return { start, end, hasMore: page.offset + (end - start) < total };
}
