import { setUsage, startThrowawayServer, type ThrowawayServer } from '@quotes/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createQuotesClient,
  type IterateQuotesEvent,
  iterateQuotes,
  QuotesPagingError,
  QuotesProblemError,
} from '../src/index.js';

// The client against the real server on a real (throwaway, embedded) PostgreSQL: what the mock
// cannot show, since it knows no plans, counts nothing and compares no ETags.
let service: ThrowawayServer;

beforeAll(async () => {
  service = await startThrowawayServer({ corpusSize: 3000, corpusSeed: 7 });
}, 120_000);

afterAll(() => service?.close());

const clientFor = async (
  plan: 'trial' | 'professional' | 'platform',
  sendKeyAs: 'x-api-key' | 'bearer' = 'x-api-key',
) => {
  const issued = await service.server.operator.createKey({ client: `Client test (${plan})`, plan });
  return createQuotesClient({ baseUrl: service.server.url, apiKey: issued.key, sendKeyAs });
};

describe('the typed client against the real server', () => {
  it('gets a random quote that satisfies its filters, with either way of sending the key', async () => {
    for (const sendKeyAs of ['x-api-key', 'bearer'] as const) {
      const quotes = await clientFor('professional', sendKeyAs);
      const quote = await quotes.getRandomQuote({ category: 'grief', era: 'modern' });
      expect(quote.category).toBe('Grief & Loss');
      expect(quote.era).toBe('Modern');
    }
  });

  it('walks every page of a filtered list exactly once, in curation order', async () => {
    const quotes = await clientFor('platform');
    const { total } = await quotes.listQuotes({ mood: 'reflective', limit: 1 });
    const seen: string[] = [];
    for await (const quote of iterateQuotes(quotes, { mood: 'reflective' }, { pageSize: 100 })) {
      expect(quote.mood.split(',')).toContain('reflective');
      seen.push(quote.id);
    }
    expect(total).toBeGreaterThan(100);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('revalidates the filter values: the server answers 304 and the client returns its copy', async () => {
    const quotes = await clientFor('professional');
    const first = await quotes.withMeta.listFilterValues();
    const second = await quotes.withMeta.listFilterValues();
    expect([first.response.status, second.response.status]).toEqual([200, 304]);
    expect(second.notModified).toBe(true);
    expect(second.data).toEqual(first.data);
    expect(first.data.categories.reduce((sum, category) => sum + category.count, 0)).toBe(3000);
    // Both were counted: the allowance headers say so, and so does quotes-usage.
    expect(second.rateLimit?.remaining).toBe(50_000 - 2);
    expect((await quotes.getUsage()).calls_this_month).toBe(2);
  });

  it("surfaces the server's refusals as typed problems", async () => {
    const trial = await clientFor('trial');
    const planLimit = await trial
      .getRandomQuote({ category: 'grief', mood: 'poignant' })
      .catch((error: unknown) => error);
    expect(planLimit).toBeInstanceOf(QuotesProblemError);
    expect(planLimit).toMatchObject({ status: 403, type: 'urn:quotes:problem:plan-limit' });

    const professional = await clientFor('professional');
    // The generated types refuse a bad era; a caller without types can still send one.
    const invalid = await professional.listQuotes({ era: 'Jurassic' as 'Modern' }).catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 400, type: 'urn:quotes:problem:invalid-request' });
    expect((invalid as QuotesProblemError).errors?.map((error) => error.parameter)).toEqual(['era']);

    const unknown = createQuotesClient({ baseUrl: service.server.url, apiKey: `qk_${'A'.repeat(24)}` });
    await expect(unknown.getUsage()).rejects.toMatchObject({ status: 401, type: 'urn:quotes:problem:invalid-api-key' });
  });
});

describe('iterateQuotes on a trial key, against the real server', () => {
  let walker = 0;
  const trialKey = async (used = 0) => {
    // One trial per client: each walk is another client.
    const client = `Walk test ${++walker}`;
    const issued = await service.server.operator.createKey({ client, plan: 'trial' });
    if (used > 0) await setUsage(service.server.database, issued.id, used);
    return createQuotesClient({ baseUrl: service.server.url, apiKey: issued.key });
  };

  it("says the page was cut to the plan's 10, waits out the per-second limit, and stops at its call budget", async () => {
    const quotes = await trialKey();
    const events: IterateQuotesEvent[] = [];
    const seen: string[] = [];
    for await (const quote of iterateQuotes(quotes, {}, { pageSize: 50, maxCalls: 40, onEvent: (e) => events.push(e) }))
      seen.push(quote.id);
    expect(seen).toHaveLength(400);
    expect(new Set(seen).size).toBe(400);
    expect(events.filter((event) => event.type !== 'rate-limited')).toEqual([
      { type: 'page-size-cut', asked: 50, given: 10 },
      { type: 'budget-spent', calls: 40, nextOffset: 400 },
    ]);
    // 40 calls cannot all fit a bucket of 10 refilled 10 a second unless they take 3 s: at least
    // one refusal was waited out, each for the server's Retry-After of 1 s.
    const waits = events.filter((event) => event.type === 'rate-limited');
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(new Set(waits.map((event) => event.waitMs))).toEqual(new Set([1000]));
    // The refusals were not counted: the allowance paid for the 40 pages only.
    expect((await quotes.getUsage()).calls_in_period).toBe(40);
  });

  it('stops on the used-up allowance with a typed error saying where to resume', async () => {
    const quotes = await trialKey(1000 - 3);
    const seen: string[] = [];
    const stopped = await (async () => {
      for await (const quote of iterateQuotes(quotes, { mood: 'reflective' })) seen.push(quote.id);
    })().catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(QuotesPagingError);
    expect(stopped).toMatchObject({ reason: 'allowance-exhausted', nextOffset: 30, calls: 3 });
    expect((stopped as QuotesPagingError).cause).toMatchObject({ status: 429, code: 'allowance-exhausted' });
    // A trial's allowance comes back only when a new key is issued: at this key's expiry, 30 days on.
    const days = ((stopped as QuotesPagingError).retryAt!.getTime() - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    expect(seen).toHaveLength(30);
  });

  it('with rateLimitWaitMs: 0, stops at the first rate-limited answer instead of waiting', async () => {
    const quotes = await trialKey();
    let seen = 0;
    const stopped = await (async () => {
      for await (const _quote of iterateQuotes(quotes, {}, { rateLimitWaitMs: 0 })) seen++;
    })().catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(QuotesPagingError);
    const { reason, nextOffset, calls } = stopped as QuotesPagingError;
    expect(reason).toBe('rate-limited');
    // The plan's burst of 10, and what refilled meanwhile.
    expect(calls).toBeGreaterThanOrEqual(10);
    expect([nextOffset, seen]).toEqual([calls * 10, calls * 10]);
  });
});
