import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, httpFixtureWithKey } from '../support/httpFixture.js';

let fixture: HttpFixture;
let key: string;

beforeAll(async () => ({ fixture, key } = await httpFixtureWithKey('platform')));
afterAll(() => fixture?.close());

interface Page {
  quotes: { id: string; category: string; mood: string; era: string; length: string }[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

async function page(query: string): Promise<Page> {
  const answer = await fixture.server.call(`/v1/quotes-filter?${query}`, { key });
  expect(answer.status).toBe(200);
  return answer.body as Page;
}

/** The expected ids, in the list order, computed by the database independently of ranks. */
async function expectedIds(where: ReturnType<typeof sql>): Promise<string[]> {
  const result = await sql<{ id: string }>`SELECT id FROM quotes WHERE ${where} ORDER BY score DESC, id ASC`.execute(
    fixture.database.db,
  );
  return result.rows.map((row) => row.id);
}

async function walk(query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += limit) {
    const current = await page(`${query}&limit=${limit}&offset=${offset}`);
    ids.push(...current.quotes.map((quote) => quote.id));
    expect(current.has_more).toBe(offset + current.quotes.length < current.total);
    if (!current.has_more) break;
  }
  return ids;
}

describe('walking all pages', () => {
  it('yields each matching quote exactly once, in score-then-id order', async () => {
    // "i" is part of six moods: challenging, inspirational, poignant, reflective, serious, uplifting.
    const expected = await expectedIds(
      sql`category IN ('Family & Parenting', 'Parenting & Children') AND moods && ARRAY['challenging', 'inspirational', 'poignant', 'reflective', 'serious', 'uplifting']`,
    );
    expect(expected.length).toBeGreaterThan(6);
    const ids = await walk('category=parent&mood=i', 3);
    expect(ids).toEqual(expected);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('covers the whole corpus without a filter', async () => {
    const expected = await expectedIds(sql`true`);
    const all: string[] = [];
    for (let offset = 0; ; offset += 100) {
      const current = await page(`limit=100&offset=${offset}`);
      all.push(...current.quotes.map((quote) => quote.id));
      if (!current.has_more) break;
    }
    expect(all).toEqual(expected);
  });
});

describe('total and has_more', () => {
  it('are exact', async () => {
    const expected = await expectedIds(sql`era = 'Ancient' AND length = 'Long'`);
    expect(expected.length).toBeGreaterThan(5);
    const first = await page('era=ancient&length=LONG&limit=5');
    expect(first.total).toBe(expected.length);
    expect(first.has_more).toBe(expected.length > 5);
    const last = await page(`era=ancient&length=LONG&limit=5&offset=${expected.length - 1}`);
    expect([last.quotes.length, last.has_more]).toEqual([1, false]);
  });

  it('give an empty page past the end, and total 0 for no match (200, not 404)', async () => {
    const past = await page('category=grief&offset=10000');
    expect(past.quotes).toEqual([]);
    expect(past.has_more).toBe(false);
    expect(past.total).toBe((await expectedIds(sql`category = 'Grief & Loss'`)).length);
    expect(past.total).toBeGreaterThan(0);
    const none = await page('category=Athletes&era=Ancient&faith=Taoist&length=short');
    expect([none.total, none.quotes.length, none.has_more]).toEqual([0, 0, false]);
  });

  it('apply the default page size and report what was applied', async () => {
    const defaults = await page('mood=dark');
    expect([defaults.limit, defaults.offset, defaults.quotes.length]).toEqual([10, 0, 10]);
  });
});

describe('matching', () => {
  it('is case-insensitive and partial for category and mood', async () => {
    const lower = await page('category=grief&limit=100');
    const upper = await page('category=GRIEF&limit=100');
    const full = await page('category=Grief+%26+Loss&limit=100');
    expect(lower.quotes.map((q) => q.id)).toEqual(upper.quotes.map((q) => q.id));
    expect(lower.quotes.map((q) => q.id)).toEqual(full.quotes.map((q) => q.id));
    expect(lower.quotes.every((quote) => quote.category === 'Grief & Loss')).toBe(true);
  });

  it('takes + (and %20) as a space', async () => {
    const plus = await page('era=early+modern&limit=100');
    const encoded = await page('era=Early%20Modern&limit=100');
    expect(plus.total).toBe((await expectedIds(sql`era = 'Early Modern'`)).length);
    expect(plus.total).toBeGreaterThan(0);
    expect(plus.quotes.every((quote) => quote.era === 'Early Modern')).toBe(true);
    expect(plus.quotes.map((q) => q.id)).toEqual(encoded.quotes.map((q) => q.id));
  });

  it('matches any of several categories for text shared by their names', async () => {
    const both = await page('category=parent&limit=100');
    expect(new Set(both.quotes.map((quote) => quote.category))).toEqual(
      new Set(['Family & Parenting', 'Parenting & Children']),
    );
  });

  it('matches a quote having any matching mood tag', async () => {
    const result = await page('mood=inspir&limit=100');
    expect(result.quotes.every((quote) => quote.mood.split(',').includes('inspirational'))).toBe(true);
    expect(result.total).toBe((await expectedIds(sql`'inspirational' = ANY(moods)`)).length);
  });

  it('combines every filter with AND', async () => {
    const expected = await expectedIds(sql`category = 'Love & Relationships' AND length = 'Medium'`);
    const result = await page('category=love&length=medium&limit=100');
    expect(result.quotes.map((q) => q.id)).toEqual(expected);
  });
});
