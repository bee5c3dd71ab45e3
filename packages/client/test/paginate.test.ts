import { afterEach, describe, expect, it } from 'vitest';
import {
  createQuotesClient,
  type IterateQuotesEvent,
  iterateQuotes,
  QuotesPagingError,
  QuotesProblemError,
  type QuoteSummary,
} from '../src/index.js';
import { sendJson, startServer, type TestServer } from './helpers.js';

// The Prism mock answers the same example page whatever the offset, so paging is tested
// against a small real HTTP server that pages an array the way the contract describes.
const CATEGORIES = ['Grief & Loss', 'Hope & Optimism'] as const;
const quotes: QuoteSummary[] = Array.from({ length: 23 }, (_, i) => ({
  id: `q_${i}`,
  text: `Quote number ${i}.`,
  author: `Author ${i}`,
  category: CATEGORIES[i % 2]!,
  mood: 'reflective',
  era: 'Modern',
  length: 'Short',
}));
const LARGEST_PAGE = 5;

interface Behaviour {
  /** Answer a 429 instead of the page at this offset (allowance-exhausted unless said), Retry-After 60. */
  failAtOffset?: number;
  failWith?: 'allowance-exhausted' | 'rate-limited';
  /** Claim has_more on an empty page (a broken server). */
  lieAboutMore?: boolean;
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function pagingServer(behaviour: Behaviour = {}): Promise<TestServer> {
  server = await startServer((url, request, response) => {
    if (url.pathname !== '/v1/quotes-filter' || !request.headers['x-api-key']) {
      sendJson(response, 400, {
        type: 'urn:quotes:problem:invalid-request',
        title: 'Unexpected',
        status: 400,
        detail: url.href,
      });
      return;
    }
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 10), LARGEST_PAGE);
    if (offset === behaviour.failAtOffset) {
      sendJson(
        response,
        429,
        {
          type: `urn:quotes:problem:${behaviour.failWith ?? 'allowance-exhausted'}`,
          title: 'Too many requests',
          status: 429,
          detail: 'used up',
        },
        { 'Retry-After': '60' },
      );
      return;
    }
    const category = url.searchParams.get('category');
    const matching = quotes.filter((q) => !category || q.category.toLowerCase().includes(category.toLowerCase()));
    const page = behaviour.lieAboutMore ? [] : matching.slice(offset, offset + limit);
    sendJson(response, 200, {
      quotes: page,
      total: matching.length,
      limit,
      offset,
      has_more: behaviour.lieAboutMore ? true : offset + page.length < matching.length,
    });
  });
  return server;
}

async function collect(iterable: AsyncIterable<QuoteSummary>): Promise<string[]> {
  const ids: string[] = [];
  for await (const quote of iterable) ids.push(quote.id);
  return ids;
}

describe('iterateQuotes', () => {
  it('walks every page in order, following the clamped page size the server applied', async () => {
    const { url, requests } = await pagingServer();
    const client = createQuotesClient({ baseUrl: url, apiKey: 'qk_pages' });

    expect(await collect(iterateQuotes(client, {}, { pageSize: 10 }))).toEqual(quotes.map((q) => q.id));
    expect(requests.map((r) => r.searchParams.get('offset'))).toEqual(['0', '5', '10', '15', '20']);
    expect(requests.every((r) => r.searchParams.get('limit') === '10')).toBe(true);
  });

  it('passes the filters on every page and stops at has_more false', async () => {
    const { url, requests } = await pagingServer();
    const client = createQuotesClient({ baseUrl: url, apiKey: 'qk_pages' });

    const ids = await collect(iterateQuotes(client, { category: 'grief' }));
    expect(ids).toEqual(quotes.filter((q) => q.category === 'Grief & Loss').map((q) => q.id));
    expect(ids).toHaveLength(12);
    expect(requests).toHaveLength(3);
    expect(requests.every((r) => r.searchParams.get('category') === 'grief')).toBe(true);
    expect(requests.every((r) => !r.searchParams.has('limit'))).toBe(true);
  });

  it('starts at the given offset', async () => {
    const { url } = await pagingServer();
    const client = createQuotesClient({ baseUrl: url, apiKey: 'qk_pages' });
    expect(await collect(iterateQuotes(client, {}, { offset: 20 }))).toEqual(['q_20', 'q_21', 'q_22']);
  });

  it('makes one call and yields nothing when nothing matches', async () => {
    const { url, requests } = await pagingServer();
    const client = createQuotesClient({ baseUrl: url, apiKey: 'qk_pages' });
    expect(await collect(iterateQuotes(client, { category: 'nothing matches this' }))).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('fetches no further page once the caller stops', async () => {
    const { url, requests } = await pagingServer();
    const client = createQuotesClient({ baseUrl: url, apiKey: 'qk_pages' });
    const ids: string[] = [];
    for await (const quote of iterateQuotes(client)) {
      ids.push(quote.id);
      if (ids.length === 7) break;
    }
    expect(ids).toEqual(['q_0', 'q_1', 'q_2', 'q_3', 'q_4', 'q_5', 'q_6']);
    expect(requests).toHaveLength(2);
  });

  it('stops on a used-up allowance after yielding the pages before it, saying where to resume', async () => {
    const { url } = await pagingServer({ failAtOffset: 10 });
    const client = createQuotesClient({ baseUrl: url, apiKey: 'qk_pages' });
    const ids: string[] = [];
    const error = await (async () => {
      for await (const quote of iterateQuotes(client)) ids.push(quote.id);
    })().catch((thrown: unknown) => thrown);
    expect(ids).toHaveLength(10);
    expect(error).toBeInstanceOf(QuotesPagingError);
    expect(error).toMatchObject({ reason: 'allowance-exhausted', nextOffset: 10, calls: 2 });
    expect((error as QuotesPagingError).cause).toBeInstanceOf(QuotesProblemError);
    expect((error as QuotesPagingError).cause.retryAfterSeconds).toBe(60);
  });

  it('does not wait out a rate limit longer than rateLimitWaitMs: it stops at once', async () => {
    const { url, requests } = await pagingServer({ failAtOffset: 5, failWith: 'rate-limited' });
    const client = createQuotesClient({ baseUrl: url, apiKey: 'qk_pages' });
    const events: IterateQuotesEvent[] = [];
    const started = performance.now();
    const error = await collect(iterateQuotes(client, {}, { onEvent: (event) => events.push(event) })).catch(
      (thrown: unknown) => thrown,
    );
    // The server asks for 60 s, more than the default 10 s a page.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error).toMatchObject({ reason: 'rate-limited', nextOffset: 5, calls: 1 });
    expect(events).toEqual([]);
    expect(requests).toHaveLength(2);
  });

  it('refuses a bad maxCalls, pageSize or rateLimitWaitMs before any call', async () => {
    const { url, requests } = await pagingServer();
    const client = createQuotesClient({ baseUrl: url, apiKey: 'qk_pages' });
    for (const options of [{ maxCalls: 0 }, { pageSize: 2.5 }, { rateLimitWaitMs: -1 }]) {
      await expect(collect(iterateQuotes(client, {}, options))).rejects.toThrow(RangeError);
    }
    expect(requests).toHaveLength(0);
  });

  it('refuses an empty page that claims has_more instead of looping forever', async () => {
    const { url, requests } = await pagingServer({ lieAboutMore: true });
    const client = createQuotesClient({ baseUrl: url, apiKey: 'qk_pages' });
    await expect(collect(iterateQuotes(client))).rejects.toThrow('empty page with has_more at offset 0');
    expect(requests).toHaveLength(1);
  });
});
