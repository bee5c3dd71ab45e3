import { loadContract, type Quote, type QuotePage } from '@quotes/contract';
import { Problem, type ResolvedFilter } from '@quotes/server/data-free-checks';
import { exampleQuotes } from './exampleQuotes.js';

export interface ExampleAnswer {
  readonly status: number;
  readonly body: string;
  readonly contentType: string;
  readonly headers: Record<string, string>;
}

/** The allowance headers of a counted call, as the contract's header examples give them. */
function documentedAllowanceHeaders(): Record<string, string> {
  const headers = (loadContract().components as { headers?: Record<string, { example?: unknown }> }).headers ?? {};
  const named: Record<string, string> = {
    'RateLimit-Policy': 'RateLimitPolicy',
    RateLimit: 'RateLimit',
    'X-RateLimit-Limit': 'XRateLimitLimit',
    'X-RateLimit-Remaining': 'XRateLimitRemaining',
    'X-RateLimit-Reset': 'XRateLimitReset',
  };
  return Object.fromEntries(
    Object.entries(named).map(([header, component]) => {
      const example = headers[component]?.example;
      if (example === undefined) throw new Error(`the contract's header ${component} has no example`);
      return [header, String(example)];
    }),
  );
}

function fits(quote: Quote, filter: ResolvedFilter): boolean {
  const moods = quote.mood.split(',');
  return (
    (filter.categories === null || filter.categories.includes(quote.category)) &&
    (filter.moods === null || moods.some((mood) => filter.moods!.includes(mood))) &&
    (filter.length === null || filter.length === quote.length) &&
    (filter.era === null || filter.era === quote.era) &&
    (filter.faith === null || filter.faith === quote.faith_tradition)
  );
}

/**
 * quotes-random and quotes-filter answered from the mock's example quotes (exampleQuotes.ts), so
 * answers vary and fit the filters: a random one of those that fit, or the page of them; none
 * fitting is the server's 404 no-match (quotes-random) or an empty page. Other operations, and
 * any request with `Prefer`, are left to Prism and the contract's examples.
 */
export function createExampleAnswers(random: () => number = Math.random) {
  const allowance = documentedAllowanceHeaders();
  return (operationId: string, query: Record<string, unknown>, filter: ResolvedFilter): ExampleAnswer | undefined => {
    const fitting = exampleQuotes.filter((quote) => fits(quote, filter));
    if (operationId === 'getRandomQuote') {
      if (fitting.length === 0) {
        const problem = new Problem(
          'no-match',
          `No quote of the mock's ${exampleQuotes.length} examples matches ${filter.given.join(', ')}.`,
        );
        return {
          status: 404,
          body: JSON.stringify(problem.body()),
          contentType: 'application/problem+json',
          headers: allowance,
        };
      }
      const quote = fitting[Math.floor(random() * fitting.length)]!;
      return { status: 200, body: JSON.stringify(quote), contentType: 'application/json', headers: allowance };
    }
    if (operationId === 'listQuotes') {
      const limit = typeof query.limit === 'number' ? query.limit : 10;
      const offset = typeof query.offset === 'number' ? query.offset : 0;
      const page: QuotePage = {
        quotes: fitting.slice(offset, offset + limit).map(({ id, text, author, category, mood, era, length }) => ({
          id,
          text,
          author,
          category,
          mood,
          era,
          length,
        })),
        total: fitting.length,
        limit,
        offset,
        has_more: offset + limit < fitting.length,
      };
      return { status: 200, body: JSON.stringify(page), contentType: 'application/json', headers: allowance };
    }
    return undefined;
  };
}
