import { startThrowawayServer, type ThrowawayServer } from '@quotes/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuotesClient, iterateQuotes, QuotesProblemError } from '../src/index.js';

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
