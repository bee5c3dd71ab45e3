import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, httpFixtureWithKey } from '../support/httpFixture.js';
import { quoteFields } from '../../testing/contractValidation.js';

let fixture: HttpFixture;
let key: string;

// Enterprise: the draws below come faster than any plan's burst limit allows.
beforeAll(async () => ({ fixture, key } = await httpFixtureWithKey('enterprise')));
afterAll(() => fixture?.close());

interface Quote {
  id: string;
  category: string;
  secondary_category: string | null;
  mood: string;
  era: string;
  length: string;
  faith_tradition: string | null;
}

async function random(query = ''): Promise<Quote> {
  const answer = await fixture.server.call(`/v1/quotes-random${query}`, { key });
  expect(answer.status).toBe(200);
  return answer.body as Quote;
}

/** `count` draws, at most 200 at once: a key's queue holds 256 calls (KEY_CALLS_QUEUED), and this file tests draws, not that queue. */
async function draws(count: number, query = ''): Promise<Quote[]> {
  const answers: Quote[] = [];
  while (answers.length < count) {
    const wave = Math.min(200, count - answers.length);
    answers.push(...(await Promise.all(Array.from({ length: wave }, () => random(query)))));
  }
  return answers;
}

describe('a random quote', () => {
  it('matches every filter given', async () => {
    for (let i = 0; i < 20; i++) {
      const quote = await random('?category=parent&mood=i&era=MODERN');
      expect(['Family & Parenting', 'Parenting & Children']).toContain(quote.category);
      expect(quote.mood.split(',').some((mood) => mood.includes('i'))).toBe(true);
      expect(quote.era).toBe('Modern');
    }
  });

  it('matches case-insensitive, partial and +-spaced filter text', async () => {
    expect((await random('?category=HOPE+%26+opt')).category).toBe('Hope & Optimism');
    expect((await random('?era=early+modern')).era).toBe('Early Modern');
    expect((await random('?faith=TAOIST')).faith_tradition).toBe('Taoist');
    expect((await random('?length=long')).length).toBe('Long');
  });

  it('is drawn uniformly from the matching quotes', async () => {
    const matching = await sql<{
      id: string;
    }>`SELECT id FROM quotes WHERE category = 'Grief & Loss' AND length = 'Short'`.execute(fixture.database.db);
    const ids = matching.rows.map((row) => row.id);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const drawn = 60 * ids.length;
    const seen = new Map<string, number>();
    const answers = await draws(drawn, '?category=grief&length=short');
    for (const quote of answers) seen.set(quote.id, (seen.get(quote.id) ?? 0) + 1);
    expect([...seen.keys()].sort()).toEqual([...ids].sort());
    // Chi-square against uniform, loose enough never to flake (p < 1e-6 at these degrees of freedom).
    const expected = drawn / ids.length;
    const chiSquare = [...seen.values()].reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(15 + 4 * ids.length);
  });

  it('covers the whole corpus without a filter', async () => {
    const answers = await draws(300);
    expect(new Set(answers.map((quote) => quote.id)).size).toBeGreaterThan(200);
  });

  it('carries all of a quote, nulls included', async () => {
    const quote = await random('?faith=Jewish');
    expect(Object.keys(quote)).toEqual(quoteFields);
    expect(quote.faith_tradition).toBe('Jewish');
  });
});
