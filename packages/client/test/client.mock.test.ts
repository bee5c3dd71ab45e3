import { type RunningMock, startMock } from '@quotes/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createQuotesClient,
  iterateQuotes,
  type QuotePage,
  QuotesNetworkError,
  QuotesProblemError,
} from '../src/index.js';
import { recordingFetch } from './helpers.js';
import { responseExample } from '@quotes/contract';

let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.stop();
});

/** Runs `call` and returns what it threw, failing the test if it did not throw. */
async function rejection(call: () => Promise<unknown>): Promise<QuotesProblemError> {
  const error = await call().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(QuotesProblemError);
  return error as QuotesProblemError;
}

const documentedAllowance = { limit: 10000, remaining: 5787, resetsAt: new Date(1796083200 * 1000) };

describe('every operation against the Prism mock', () => {
  it('getRandomQuote resolves to the documented quote', async () => {
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: 'qk_test' });
    const quote = await client.getRandomQuote({ category: 'grief' });
    expect(quote).toEqual(responseExample('/v1/quotes-random', '200'));
    expect(quote.faith_tradition).toBeNull();
  });

  it('listQuotes resolves to the documented page', async () => {
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: 'qk_test' });
    const page: QuotePage = await client.listQuotes({ mood: 'poignant', limit: 2, offset: 0 });
    expect(page).toEqual(responseExample('/v1/quotes-filter', '200'));
  });

  it('listFilterValues revalidates its kept copy with If-None-Match, and a 304 resolves to that copy', async () => {
    const recorder = recordingFetch();
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: 'qk_test', fetch: recorder.fetch });
    const first = await client.withMeta.listFilterValues();
    expect(first.notModified).toBe(false);
    const etag = first.response.headers.get('etag');
    expect(etag).toMatch(/^"fv-/);
    // Prism answers the documented 304 when asked to; the client must still hand back the values.
    const second = await client.withMeta.listFilterValues({ headers: { Prefer: 'code=304' } });
    expect(second.response.status).toBe(304);
    expect(second.notModified).toBe(true);
    expect(second.data).toEqual(responseExample('/v1/quotes-categories', '200'));
    expect(second.rateLimit).toEqual(documentedAllowance);
    expect(recorder.requests[0]!.headers.get('if-none-match')).toBeNull();
    expect(recorder.requests[1]!.headers.get('if-none-match')).toBe(etag);
  });

  it('listFilterValues refuses a 304 to an If-None-Match it did not send, having nothing to return', async () => {
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: 'qk_test' });
    await expect(
      client.listFilterValues({ headers: { 'If-None-Match': '"fv-x"', Prefer: 'code=304' } }),
    ).rejects.toThrow(/304 Not Modified/);
  });

  it('listFilterValues resolves to the documented values', async () => {
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: 'qk_test' });
    expect(await client.listFilterValues()).toEqual(responseExample('/v1/quotes-categories', '200'));
  });

  it('getUsage resolves to the documented usage', async () => {
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: 'qk_test' });
    expect(await client.getUsage()).toEqual(responseExample('/v1/quotes-usage', '200'));
  });

  it('requestKey sends the request as JSON, without a key, and resolves to the documented answer', async () => {
    const client = createQuotesClient({ baseUrl: mock.url });
    const answer = await client.requestKey({
      email: 'ann@example.com',
      name: 'Ann Lee',
      application: 'Quote widget',
      use: 'A quote of the day',
      accept_terms: true,
    });
    expect(answer).toEqual({ status: 'received', detail: expect.stringMatching(/Check your mail/) });
  });

  it('withMeta exposes the allowance headers of counted calls, and none for quotes-usage', async () => {
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: 'qk_test' });
    const random = await client.withMeta.getRandomQuote();
    expect(random.data).toEqual(responseExample('/v1/quotes-random', '200'));
    expect(random.rateLimit).toEqual(documentedAllowance);
    expect(random.response.status).toBe(200);

    expect((await client.withMeta.listQuotes()).rateLimit).toEqual(documentedAllowance);
    expect((await client.withMeta.listFilterValues()).rateLimit).toEqual(documentedAllowance);
    expect((await client.withMeta.getUsage()).rateLimit).toBeUndefined();
  });
});

describe('what goes on the wire', () => {
  it('calls the contract paths with the query and exactly one key, in X-API-Key by default', async () => {
    const { fetch, requests } = recordingFetch();
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: 'qk_header', fetch });
    await client.listQuotes({ category: 'Hope & Optimism', limit: 5, offset: 10 });

    const [request] = requests;
    const url = new URL(request!.url);
    expect(url.pathname).toBe('/v1/quotes-filter');
    expect(Object.fromEntries(url.searchParams)).toEqual({ category: 'Hope & Optimism', limit: '5', offset: '10' });
    expect(request!.headers.get('x-api-key')).toBe('qk_header');
    expect(request!.headers.get('authorization')).toBeNull();
  });

  it('sends the key as a Bearer token when asked to', async () => {
    const { fetch, requests } = recordingFetch();
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: 'qk_bearer', sendKeyAs: 'bearer', fetch });
    expect(await client.getUsage()).toEqual(responseExample('/v1/quotes-usage', '200'));
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer qk_bearer');
    expect(requests[0]!.headers.get('x-api-key')).toBeNull();
  });
});

describe('problems', () => {
  it('no key: 401 with the contract problem type', async () => {
    const client = createQuotesClient({ baseUrl: mock.url });
    const error = await rejection(() => client.getRandomQuote());
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(401);
    expect(error.type).toBe('urn:quotes:problem:missing-api-key');
    expect(error.title).toBe('API key required');
    expect(error.message).toContain('401 API key required');
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it('an empty key is not sent, so it is a 401 too', async () => {
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: '' });
    expect((await rejection(() => client.getUsage())).status).toBe(401);
  });

  it('Prefer: code=429 per call: 429 with retryAfterSeconds and the allowance', async () => {
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: 'qk_test' });
    const error = await rejection(() => client.getRandomQuote({}, { headers: { Prefer: 'code=429' } }));
    expect(error.status).toBe(429);
    expect(error.type).toBe('urn:quotes:problem:allowance-exhausted');
    expect(error.code).toBe('allowance-exhausted');
    expect(error.retryAfterSeconds).toBe(691200);
    expect(Math.abs(error.retryAt!.getTime() - (Date.now() + 691200_000))).toBeLessThan(60_000);
    // The 429 example's headers agree with its text: the whole allowance used, none left.
    expect(error.rateLimit).toEqual({ ...documentedAllowance, remaining: 0 });
    expect(error.detail).toContain(`All ${documentedAllowance.limit} calls`);
    expect(error.detail).toBe((responseExample('/v1/quotes-random', '429') as { detail: string }).detail);
  });

  it('client-level headers apply to every call and per-call headers win', async () => {
    const client = createQuotesClient({
      baseUrl: mock.url,
      apiKey: 'qk_test',
      headers: { Prefer: 'code=403, example=revoked' },
    });
    for (const call of [() => client.listFilterValues(), () => client.getUsage(), () => client.listQuotes()]) {
      const error = await rejection(call);
      expect(error.status).toBe(403);
      expect(error.type).toBe('urn:quotes:problem:revoked-api-key');
    }
    const noMatch = await rejection(() =>
      client.getRandomQuote({ era: 'Ancient' }, { headers: { Prefer: 'code=404' } }),
    );
    expect(noMatch.status).toBe(404);
    expect(noMatch.type).toBe('urn:quotes:problem:no-match');
  });

  it('400 carries the errors list', async () => {
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: 'qk_test' });
    const error = await rejection(() => client.listQuotes({ limit: 0 }));
    expect(error.status).toBe(400);
    expect(error.type).toBe('urn:quotes:problem:invalid-request');
    expect(error.errors).toEqual([
      { parameter: 'era', message: 'must be one of Ancient, Medieval, Early Modern, Modern, Contemporary, Present' },
    ]);
  });

  it('a problem type outside the contract (Prism’s own) is about:blank, and kept as rawType', async () => {
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: 'qk_test' });
    const error = await rejection(() => client.getUsage({ headers: { Prefer: 'code=429' } }));
    expect(error.status).toBe(404);
    expect(error.type).toBe('about:blank');
    expect(error.code).toBe('unknown');
    expect(error.rawType).toBe('https://stoplight.io/prism/errors#NOT_FOUND');
  });

  it('a network failure is a QuotesNetworkError carrying the cause, not a problem', async () => {
    const closed = new URL(mock.url);
    closed.port = '1';
    const client = createQuotesClient({ baseUrl: closed.origin, apiKey: 'qk_test' });
    const error = await client.getUsage().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(QuotesNetworkError);
    expect(error).toMatchObject({ reason: 'network', attempts: 1 });
    expect((error as QuotesNetworkError).cause).toBeInstanceOf(TypeError);
  });
});

describe('iterateQuotes against the mock', () => {
  it('stops with an error instead of looping when the server ignores offset', async () => {
    const client = createQuotesClient({ baseUrl: mock.url, apiKey: 'qk_test' });
    const seen: string[] = [];
    const walk = async () => {
      for await (const quote of iterateQuotes(client, { category: 'grief' }, { pageSize: 2 })) seen.push(quote.id);
    };
    await expect(walk()).rejects.toThrow('listQuotes answered offset 0 to a request for offset 2');
    expect(seen).toEqual(['q_3mWt8ZrA', 'q_9BcLq2Vn']);
  });
});
