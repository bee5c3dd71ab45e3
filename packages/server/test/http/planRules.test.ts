import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, httpFixture } from '../support/httpFixture.js';
import { problemType } from '../../testing/testServer.js';

let fixture: HttpFixture;
const keys: Record<string, string> = {};

beforeAll(async () => {
  fixture = await httpFixture();
  for (const plan of ['trial', 'starter', 'professional', 'platform', 'enterprise']) {
    keys[plan] = (await fixture.server.createKey({ plan })).key;
  }
  keys.enterpriseWide = (await fixture.server.createKey({ plan: 'enterprise', unlimited: true, maxLimit: 500 })).key;
  keys.enterpriseNarrow = (await fixture.server.createKey({ plan: 'enterprise', maxLimit: 3, monthlyCalls: 1000 })).key;
});
afterAll(() => fixture?.close());

// Each is a filter that matches some fixture quotes alone and in every combination below.
const filters = ['category=a', 'mood=i', 'length=short', 'era=modern', 'faith=christian'];
const filtersPerCall: Record<string, number> = { trial: 1, starter: 2, professional: 5, platform: 5, enterprise: 5 };
const maxLimit: Record<string, number> = {
  trial: 10,
  starter: 25,
  professional: 50,
  platform: 100,
  enterprise: 100,
  enterpriseWide: 500,
  enterpriseNarrow: 3,
};

describe('filters per call (403 plan-limit beyond the plan)', () => {
  for (const [plan, allowed] of Object.entries(filtersPerCall)) {
    it(`${plan}: ${allowed} allowed`, async () => {
      // The faith filter has its own rule: count with the other four here.
      const nonFaith = filters.slice(0, 4);
      const upTo = Math.min(allowed, nonFaith.length);
      const within = await fixture.server.call(`/v1/quotes-filter?${nonFaith.slice(0, upTo).join('&')}`, {
        key: keys[plan],
      });
      expect(within.status).toBe(200);
      if (allowed < nonFaith.length) {
        const beyond = await fixture.server.call(`/v1/quotes-filter?${nonFaith.slice(0, allowed + 1).join('&')}`, {
          key: keys[plan],
        });
        expect([beyond.status, problemType(beyond)]).toEqual([403, 'plan-limit']);
        expect((beyond.body as { detail: string }).detail).toContain(`allows ${allowed} filter`);
        const random = await fixture.server.call(`/v1/quotes-random?${nonFaith.slice(0, allowed + 1).join('&')}`, {
          key: keys[plan],
        });
        expect(problemType(random)).toBe('plan-limit');
      } else {
        const all = await fixture.server.call(`/v1/quotes-random?${filters.join('&')}`, { key: keys[plan] });
        expect([200, 404]).toContain(all.status);
      }
    });
  }

  it('does not count limit and offset as filters', async () => {
    const answer = await fixture.server.call('/v1/quotes-filter?category=love&limit=5&offset=1', { key: keys.trial });
    expect(answer.status).toBe(200);
  });
});

describe('the faith filter', () => {
  for (const plan of ['trial', 'starter']) {
    it(`is refused on ${plan} (403 plan-limit), on both quote operations`, async () => {
      for (const path of ['/v1/quotes-random?faith=Buddhist', '/v1/quotes-filter?faith=Buddhist']) {
        const answer = await fixture.server.call(path, { key: keys[plan] });
        expect([answer.status, problemType(answer)]).toEqual([403, 'plan-limit']);
        expect((answer.body as { detail: string }).detail).toContain('faith filter');
      }
    });
  }

  for (const plan of ['professional', 'platform', 'enterprise']) {
    it(`is allowed on ${plan}`, async () => {
      const answer = await fixture.server.call('/v1/quotes-filter?faith=buddhist&limit=50', { key: keys[plan] });
      expect(answer.status).toBe(200);
      const page = answer.body as { total: number };
      const stored = await fixture.database.db
        .selectFrom('quotes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('faith_tradition', '=', 'Buddhist')
        .executeTakeFirstOrThrow();
      expect(page.total).toBe(Number(stored.n));
      expect(page.total).toBeGreaterThan(0);
    });
  }
});

describe("the largest page (limit clamped to the key's plan)", () => {
  for (const [plan, largest] of Object.entries(maxLimit)) {
    it(`${plan}: ${largest}`, async () => {
      const answer = await fixture.server.call('/v1/quotes-filter?limit=1000', { key: keys[plan] });
      expect(answer.status).toBe(200);
      const page = answer.body as { quotes: unknown[]; limit: number; total: number };
      expect(page.limit).toBe(largest);
      expect(page.quotes).toHaveLength(Math.min(largest, page.total));
      const smaller = await fixture.server.call(`/v1/quotes-filter?limit=${Math.max(1, largest - 1)}`, {
        key: keys[plan],
      });
      expect((smaller.body as { limit: number }).limit).toBe(Math.max(1, largest - 1));
    });
  }
});
