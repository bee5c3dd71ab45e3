import type { IncomingHttpHeaders } from 'node:http';
import type { PlanRules, QuotePage, QuoteSummary } from '@quotes/contract';
import {
  applyPageLimits,
  filterValuesBody,
  filterValuesEtag,
  ifNoneMatchMatches,
  pageWindow,
  type ResolvedFilter,
  usageSummary,
} from '@quotes/server/data-free-checks';
import type { CallLedger } from './callLedger.js';
import { adaptedQuote, exampleQuotes, fits } from './exampleQuotes.js';

export interface ExampleAnswer {
  readonly status: number;
  /** None on a 304. */
  readonly body?: string;
  readonly headers: Record<string, string>;
}

/** What of a call, already checked as the server checks it, the answer depends on. */
export interface ExampleCall {
  readonly operationId: string;
  readonly key: string;
  readonly query: Record<string, unknown>;
  readonly filter: ResolvedFilter;
  readonly headers: IncomingHttpHeaders;
}

export interface ExampleAnswerOptions {
  /** The plan every key is taken to be on: its largest page applies. */
  readonly plan: PlanRules;
  /** Counts the calls against the plan's allowance. */
  readonly ledger: CallLedger;
  readonly clock: () => Date;
  readonly random?: () => number;
}

/** The client the mock's usage answer names. */
const mockClient = 'quotes-mock';

/** The example quotes that fit, or, when none does, the one adapted to the filters. */
function matching(filter: ResolvedFilter): readonly (typeof exampleQuotes)[number][] {
  const fitting = exampleQuotes.filter((quote) => fits(quote, filter));
  return fitting.length > 0 ? fitting : [adaptedQuote(filter)];
}

function summary({ id, text, author, category, mood, era, length }: QuoteSummary): QuoteSummary {
  return { id, text, author, category, mood, era, length };
}

/**
 * The four operations answered from the mock's example quotes as the server answers them from its
 * corpus, for a key on `plan`: quotes-random a random quote of those that fit (an adapted one
 * when none does), quotes-filter the page of them (`limit` capped at the plan's largest page),
 * quotes-categories every category with its count among the examples (ETag, If-None-Match),
 * quotes-usage the key's calls counted by the mock. Counted answers carry the server's allowance
 * headers; a call beyond the allowance is its 429 (thrown).
 */
export function createExampleAnswers(options: ExampleAnswerOptions) {
  const { plan, ledger, clock } = options;
  const random = options.random ?? Math.random;
  const counts: Record<string, number> = {};
  for (const quote of exampleQuotes) counts[quote.category] = (counts[quote.category] ?? 0) + 1;
  const categoriesBody = filterValuesBody(counts).toString();
  const categoriesEtag = filterValuesEtag(categoriesBody);

  return (call: ExampleCall): ExampleAnswer | undefined => {
    switch (call.operationId) {
      case 'getRandomQuote': {
        const quotes = matching(call.filter);
        const headers = ledger.count(call.key);
        return { status: 200, body: JSON.stringify(quotes[Math.floor(random() * quotes.length)]), headers };
      }
      case 'listQuotes': {
        const quotes = matching(call.filter);
        const page = applyPageLimits(call.query, plan.maxLimit);
        const { start, end, hasMore } = pageWindow(quotes.length, page);
        const body: QuotePage = {
          quotes: quotes.slice(start, end).map(summary),
          total: quotes.length,
          limit: page.limit,
          offset: page.offset,
          has_more: hasMore,
        };
        return { status: 200, body: JSON.stringify(body), headers: ledger.count(call.key) };
      }
      case 'listFilterValues': {
        const headers = { ...ledger.count(call.key), ETag: categoriesEtag, 'Cache-Control': 'private, no-cache' };
        if (ifNoneMatchMatches(call.headers['if-none-match'], categoriesEtag)) return { status: 304, headers };
        return { status: 200, body: categoriesBody, headers };
      }
      case 'getUsage': {
        const calls = ledger.usedBy(call.key);
        const usage = usageSummary({
          client: mockClient,
          plan,
          callsThisMonth: calls,
          callsInPeriod: calls,
          limit: plan.monthlyCalls,
          period: ledger.window(clock()),
        });
        return { status: 200, body: JSON.stringify(usage), headers: {} };
      }
      default:
        return undefined;
    }
  };
}
