import { createHash } from 'node:crypto';
import type { Quote } from '@quotes/contract';
import type { ResolvedFilter } from '@quotes/server/data-free-checks';
import generated from './generated/exampleQuotes.gen.json' with { type: 'json' };

/**
 * The mock's example quotes: quotes of the server's default corpus, chosen by
 * scripts/generateExampleQuotes.ts so that every filter value alone, and every common pair of
 * values, has two pages of them; in the server's rank order, so pages list them as the server does.
 */
export const exampleQuotes: readonly Quote[] = generated as Quote[];

/** True when the quote fits every filter given, as the server matches them. */
export function fits(quote: Quote, filter: ResolvedFilter): boolean {
  return (
    (filter.categories === null || filter.categories.includes(quote.category)) &&
    (filter.moods === null || quote.mood.split(',').some((mood) => filter.moods!.includes(mood))) &&
    (filter.length === null || filter.length === quote.length) &&
    (filter.era === null || filter.era === quote.era) &&
    (filter.faith === null || filter.faith === quote.faith_tradition)
  );
}

/** How many of the filters that tags can meet (all but length, which is the text's) the quote fits. */
function taggedFits(quote: Quote, filter: ResolvedFilter): number {
  const one = (part: Partial<ResolvedFilter>) => (fits(quote, { ...filter, length: null, ...part }) ? 1 : 0);
  return (
    one({ moods: null, era: null, faith: null }) +
    one({ categories: null, era: null, faith: null }) +
    one({ categories: null, moods: null, faith: null }) +
    one({ categories: null, moods: null, era: null })
  );
}

/**
 * A quote for a valid combination that no example fits: the example of the asked length that
 * fits most of the other filters (the better-ranked on a tie), tagged with the values asked for,
 * under an id of its own. The same combination always gets the same quote.
 */
export function adaptedQuote(filter: ResolvedFilter): Quote {
  let best: Quote | undefined;
  let bestFits = -1;
  for (const quote of exampleQuotes) {
    if (filter.length !== null && quote.length !== filter.length) continue;
    const count = taggedFits(quote, filter);
    if (count > bestFits) [best, bestFits] = [quote, count];
  }
  if (!best) throw new Error(`no example quote is ${filter.length}`);
  const category = filter.categories?.includes(best.category)
    ? best.category
    : (filter.categories?.[0] ?? best.category);
  const moods = best.mood.split(',');
  const mood =
    filter.moods === null || moods.some((value) => filter.moods!.includes(value))
      ? best.mood
      : [filter.moods[0]!, ...moods].join(',');
  const adapted = {
    ...best,
    category,
    secondary_category: best.secondary_category === category ? null : best.secondary_category,
    mood,
    era: filter.era ?? best.era,
    faith_tradition: filter.faith ?? best.faith_tradition,
  } as Quote;
  const digest = createHash('sha256').update(JSON.stringify(adapted)).digest('hex');
  return { ...adapted, id: `q_${digest.slice(0, 13)}` };
}
