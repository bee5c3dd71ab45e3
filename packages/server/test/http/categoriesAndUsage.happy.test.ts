import { setUsage } from '@quotes/accounts/usage-override';
import { taxonomy } from '@quotes/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureRows, loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { type HttpFixture, httpFixture } from '../support/httpFixture.js';
import { manualClock } from '../../testing/testServer.js';

const clock = manualClock('2026-11-23T00:00:00Z');
let fixture: HttpFixture;

beforeAll(async () => {
  fixture = await httpFixture({ clock: clock.clock });
});
afterAll(() => fixture?.close());

interface FilterValues {
  categories: { name: string; count: number }[];
  total_categories: number;
  moods: string[];
  lengths: string[];
  eras: string[];
  faith_traditions: string[];
}

/**
 * Loads a corpus of `perCategory` quotes in each category and waits (2 s at most) until the
 * server answers from it, so no test starts while the previous one's reload is still arriving.
 */
async function loadCorpusAndAwait(key: string, perCategory: number): Promise<FilterValues> {
  await loadFixtureCorpus(fixture.database, fixtureRows(perCategory));
  // The NOTIFY reaches the server within milliseconds; allow it a moment.
  const deadline = Date.now() + 2000;
  for (;;) {
    const body = (await fixture.server.call('/v1/quotes-categories', { key })).body as FilterValues;
    if (body.categories.every((category) => category.count === perCategory) || Date.now() > deadline) return body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('quotes-categories', () => {
  it('lists every category sorted by name with its current count, and the other filter values', async () => {
    const key = (await fixture.server.createKey({ plan: 'starter' })).key;
    const answer = await fixture.server.call('/v1/quotes-categories', { key });
    expect(answer.status).toBe(200);
    const body = answer.body as FilterValues;
    const counts = await sql<{
      category: string;
      n: number;
    }>`SELECT category, count(*)::int AS n FROM quotes GROUP BY category`.execute(fixture.database.db);
    expect(body.categories.map((category) => category.name)).toEqual([...taxonomy.categories].sort());
    expect(Object.fromEntries(body.categories.map((category) => [category.name, category.count]))).toEqual(
      Object.fromEntries(counts.rows.map((row) => [row.category, row.n])),
    );
    expect(body.total_categories).toBe(43);
    expect(body.eras).toEqual(['Ancient', 'Medieval', 'Early Modern', 'Modern', 'Contemporary', 'Present']);
    expect(body.moods).toEqual([...taxonomy.moods]);
    expect(body.lengths).toEqual(['Short', 'Medium', 'Long']);
    expect(body.faith_traditions).toEqual([...taxonomy.faithTraditions]);
    expect(answer.headers.get('x-ratelimit-remaining')).toBe('9999');
  });

  it('reflects a new corpus as soon as it is loaded', async () => {
    const key = (await fixture.server.createKey({ plan: 'platform' })).key;
    const before = (await fixture.server.call('/v1/quotes-categories', { key })).body as FilterValues;
    expect(before.categories[0]!.count).toBe(10);
    const after = await loadCorpusAndAwait(key, 3);
    expect(after.categories.every((category) => category.count === 3)).toBe(true);
    // The match sets were dropped too.
    const page = (await fixture.server.call('/v1/quotes-filter?category=grief', { key })).body as { total: number };
    expect(page.total).toBe(3);
    const restored = await loadCorpusAndAwait(key, 10);
    expect(restored.categories.every((category) => category.count === 10)).toBe(true);
  });
});

describe('quotes-categories revalidation (ETag / If-None-Match)', () => {
  const categories = '/v1/quotes-categories';

  it('answers 304 with no body for its own ETag, weak or in a list or *, and counts it', async () => {
    const key = (await fixture.server.createKey({ plan: 'starter' })).key;
    const first = await fixture.server.call(categories, { key });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"fv-[A-Za-z0-9_-]{22}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    for (const ifNoneMatch of [etag, `W/${etag}`, `"fv-other", ${etag}`, '*']) {
      const again = await fixture.server.call(categories, { key, headers: { 'If-None-Match': ifNoneMatch } });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
    }
    const last = await fixture.server.call(categories, { key, headers: { 'If-None-Match': etag } });
    // 1 + 4 + this one: every 304 was a counted call, with its allowance headers.
    expect(last.headers.get('x-ratelimit-remaining')).toBe(String(10000 - 6));
  });

  it('answers 200 with the body for any other ETag, or an unusable header', async () => {
    const key = (await fixture.server.createKey({ plan: 'starter' })).key;
    for (const ifNoneMatch of ['"fv-AAAAAAAAAAAAAAAAAAAAAA"', 'garbage', '""', `"${'x'.repeat(5000)}"`]) {
      const answer = await fixture.server.call(categories, { key, headers: { 'If-None-Match': ifNoneMatch } });
      expect(answer.status, ifNoneMatch.slice(0, 40)).toBe(200);
      expect((answer.body as FilterValues).total_categories).toBe(43);
    }
  });

  it('gives a new ETag when a new corpus changes the counts, and the old one no longer matches', async () => {
    const key = (await fixture.server.createKey({ plan: 'platform' })).key;
    const before = (await fixture.server.call(categories, { key })).headers.get('etag')!;
    await loadFixtureCorpus(fixture.database, fixtureRows(2));
    const deadline = Date.now() + 2000;
    let answer = await fixture.server.call(categories, { key, headers: { 'If-None-Match': before } });
    while (answer.status === 304 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await fixture.server.call(categories, { key, headers: { 'If-None-Match': before } });
    }
    expect(answer.status).toBe(200);
    expect(answer.headers.get('etag')).not.toBe(before);
    await loadCorpusAndAwait(key, 10);
    // The same corpus again gives the same body, hence the same ETag.
    const deadline2 = Date.now() + 2000;
    let restored = await fixture.server.call(categories, { key, headers: { 'If-None-Match': before } });
    while (restored.status !== 304 && Date.now() < deadline2) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      restored = await fixture.server.call(categories, { key, headers: { 'If-None-Match': before } });
    }
    expect(restored.status).toBe(304);
  });
});

describe('quotes-usage', () => {
  it("reports the key's calls this month and is free", async () => {
    const issued = await fixture.server.createKey({ plan: 'starter', client: 'Lanternfish Books' });
    for (let i = 0; i < 3; i++) await fixture.server.call('/v1/quotes-random', { key: issued.key });
    for (let i = 0; i < 5; i++) await fixture.server.call('/v1/quotes-usage', { key: issued.key });
    const answer = await fixture.server.call('/v1/quotes-usage', { key: issued.key });
    expect(answer.body).toEqual({
      client: 'Lanternfish Books',
      tier: 'starter',
      calls_this_month: 3,
      calls_in_period: 3,
      call_limit: 10000,
      calls_remaining: 9997,
      usage_pct: 0,
      resets: 'Resets at 00:00 UTC on the 1st of each month',
      period_start: '2026-11-01T00:00:00Z',
      resets_at: '2026-12-01T00:00:00Z',
    });
    // Not counted: no allowance headers.
    expect(answer.headers.get('x-ratelimit-remaining')).toBeNull();
  });

  it('has null limits on an unlimited plan, and per-key ones on enterprise', async () => {
    const platform = await fixture.server.createKey({ plan: 'platform' });
    await fixture.server.call('/v1/quotes-categories', { key: platform.key });
    const unlimited = (await fixture.server.call('/v1/quotes-usage', { key: platform.key })).body;
    expect(unlimited).toMatchObject({
      tier: 'platform',
      calls_this_month: 1,
      call_limit: null,
      calls_remaining: null,
      usage_pct: 0,
    });
    const enterprise = await fixture.server.createKey({ plan: 'enterprise', monthlyCalls: 200 });
    await setUsage(fixture.server.database, enterprise.id, 101, '2026-11');
    expect((await fixture.server.call('/v1/quotes-usage', { key: enterprise.key })).body).toMatchObject({
      tier: 'enterprise',
      calls_this_month: 101,
      call_limit: 200,
      calls_remaining: 99,
      usage_pct: 50,
    });
  });

  it('still answers when the allowance is used up', async () => {
    const issued = await fixture.server.createKey({ plan: 'trial' });
    await setUsage(fixture.server.database, issued.id, 1000, '2026-11');
    expect((await fixture.server.call('/v1/quotes-random', { key: issued.key })).status).toBe(429);
    const answer = await fixture.server.call('/v1/quotes-usage', { key: issued.key });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ calls_this_month: 1000, calls_remaining: 0, usage_pct: 100 });
  });
});
