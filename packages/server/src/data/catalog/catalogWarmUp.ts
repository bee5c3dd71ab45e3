import { setTimeout as sleep } from 'node:timers/promises';
import { taxonomy } from '@quotes/contract';
import type { ResolvedFilter } from '@quotes/accounts/rules';
import type { PageRequest } from '@quotes/accounts/rules';
import type { QuoteCatalog } from './quoteCatalog.js';

/** The pages the warm-up reads (each filter's random pick too): one to four filters, so every path of a read is taken. */
export function warmUpReads(): { filter: ResolvedFilter; page: PageRequest }[] {
  const { categories, moods, eras, lengths } = taxonomy;
  return Array.from({ length: 16 }, (_, i) => ({
    filter: {
      categories: [categories[(i * 7) % categories.length] as string],
      moods: i % 2 === 1 ? [moods[i % moods.length] as string] : null,
      era: i % 3 !== 0 ? (eras[i % eras.length] as string) : null,
      length: i % 4 === 0 ? (lengths[i % lengths.length] as string) : null,
      faith: null,
      given: [],
    },
    page: { limit: 10 + i * 6, offset: i * 3 },
  }));
}

/**
 * Runs the request path's reads (pages, random picks, the filter values) before the server
 * answers, so the first callers after a start do not pay for compiling that code and preparing
 * its statements on the kept connections. What the reads kept (match sets, quotes' JSON) is
 * then forgotten: the caches hold what callers asked for. Best effort and bounded: a read that
 * fails or is still running after `deadlineMs` is left to the first call that needs it.
 */
export async function warmUpCatalog(catalog: QuoteCatalog, deadlineMs: number): Promise<void> {
  const reads: Promise<unknown>[] = [catalog.filterValuesBody()];
  for (const { filter, page } of warmUpReads()) reads.push(catalog.page(filter, page), catalog.randomQuote(filter));
  const settled = Promise.allSettled(reads);
  await Promise.race([settled, sleep(deadlineMs, undefined, { ref: false })]);
  catalog.forgetReads();
}
