import type { QuotesClient } from './createQuotesClient.js';
import type { ListQuotesQuery } from './filterQuery.js';
import type { QuoteSummary } from './generated/types.gen.js';

export interface IterateQuotesOptions {
  /** Requested page size; the server clamps it to the plan's largest page. Default: server's. */
  pageSize?: number;
  /** Where to start. Default 0. */
  offset?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * Every quote matching `query`, walking listQuotes page by page. Stops when `has_more` is false.
 * Each page starts where the previous one ended (`offset + quotes.length`), so a clamped page
 * size never skips quotes. One call per page: each counts against the monthly allowance.
 */
export async function* iterateQuotes(
  client: Pick<QuotesClient, 'listQuotes'>,
  query: Omit<ListQuotesQuery, 'limit' | 'offset'> = {},
  options: IterateQuotesOptions = {},
): AsyncGenerator<QuoteSummary, void, undefined> {
  const call = {
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  let offset = options.offset ?? 0;
  for (;;) {
    const page = await client.listQuotes(
      { ...query, ...(options.pageSize !== undefined ? { limit: options.pageSize } : {}), offset },
      call,
    );
    // Both checks stop an endless loop against a server that ignores `offset` (the Prism mock
    // answers the same example page every time) or claims more while sending nothing.
    if (page.offset !== offset) {
      throw new Error(`listQuotes answered offset ${page.offset} to a request for offset ${offset}`);
    }
    if (page.has_more && page.quotes.length === 0) {
      throw new Error(`listQuotes answered an empty page with has_more at offset ${offset}`);
    }
    yield* page.quotes;
    if (!page.has_more) return;
    offset += page.quotes.length;
  }
}
