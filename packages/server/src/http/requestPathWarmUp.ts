import { taxonomy } from '@quotes/contract';
import { settledWithin } from '@quotes/service-base';
import type { ServiceRuntime } from '../serviceRuntime.js';
import { runWarmUpCalls } from './warmUpCalls.js';
import type { ContractRouting } from './contractRouting.js';

/**
 * Calls of both reading operations as callers write them: none to five filters (substrings among
 * them), pages of 10 to 100 at early offsets, so every path of a parse and a read is taken.
 */
export function warmUpUrls(count = 240): string[] {
  const { categories, moods, eras, lengths, faithTraditions } = taxonomy;
  const nth = (list: readonly string[], i: number) => list[i % list.length] as string;
  return Array.from({ length: count }, (_, i) => {
    const query = new URLSearchParams();
    const category = nth(categories, i * 7);
    if (i % 6 !== 4) query.set('category', i % 3 === 0 ? category.slice(0, 4).toLowerCase() : category);
    if ((i >> 1) % 2 === 1) query.set('mood', nth(moods, i * 3));
    if (i % 3 === 2) query.set('era', nth(eras, i));
    if (i % 5 === 3) query.set('length', nth(lengths, i));
    if (i % 7 === 5) query.set('faith', nth(faithTraditions, i));
    const random = i % 2 === 0;
    if (!random) {
      query.set('limit', String(10 + ((i * 9) % 91)));
      query.set('offset', String((i * 13) % 200));
    }
    return `/v1/${random ? 'quotes-random' : 'quotes-filter'}?${query}`;
  });
}

/** What the warm-up did: the calls it made, and the summaries it left in the cache. */
export interface WarmUpOutcome {
  calls: number;
  summaries: number;
}

/** How much warm-up a start takes at most: calls through the request path, and time in all. */
export interface WarmUpBounds {
  calls: number;
  deadlineMs: number;
}

/**
 * Before the server listens: varied calls of every reading operation through the whole request
 * path (warmUpCalls.ts), so the first callers after a start meet code V8 has already compiled and
 * optimised and statements already prepared on the kept connections. What those reads kept (match
 * sets, quotes' JSON, pages) is then forgotten, and, where the quotes are held neither in memory
 * nor in a file, the cache of quotes' JSON is filled with the summaries of the first ranks instead,
 * which the first pages of every filter serve. Best effort
 * and bounded: it stops after `calls` calls or at `deadlineMs`, or at the first call that fails
 * (left to the first caller that needs it).
 */
export async function warmUpRequestPath(
  routing: ContractRouting,
  runtime: ServiceRuntime,
  bounds: WarmUpBounds,
): Promise<WarmUpOutcome> {
  const deadline = performance.now() + bounds.deadlineMs;
  const inTime = () => performance.now() < deadline;
  const left = () => deadline - performance.now();
  const outcome: WarmUpOutcome = { calls: 0, summaries: 0 };
  const { catalog } = runtime;
  const urls = warmUpUrls();
  // One call in 20 is quotes-categories, as few callers ask for the values often.
  const paths = urls.flatMap((url, i) => (i % 20 === 19 ? [url, '/v1/quotes-categories'] : [url]));
  let failed = false;
  try {
    outcome.calls = await runWarmUpCalls(runtime, routing, paths, { calls: bounds.calls, deadline });
  } catch {
    failed = true;
  }
  catalog.forgetReads();
  if (failed || !inTime()) return outcome;
  const preload = catalog
    .preloadTopSummaries((kept) => {
      outcome.summaries = kept;
      return inTime();
    })
    .then((kept) => {
      outcome.summaries = kept;
    });
  await settledWithin(preload, left());
  return outcome;
}
