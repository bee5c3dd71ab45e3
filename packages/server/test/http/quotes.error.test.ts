import { taxonomy } from '@quotes/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, httpFixtureWithKey } from '../support/httpFixture.js';
import { problemType } from '../../testing/testServer.js';

let fixture: HttpFixture, key: string;
beforeAll(async () => ({ fixture, key } = await httpFixtureWithKey('platform')));
afterAll(() => fixture?.close());

interface ProblemBody {
  detail: string;
  errors?: { parameter: string; message: string }[];
}

async function badRequest(path: string): Promise<ProblemBody> {
  const answer = await fixture.server.call(path, { key });
  expect([answer.status, problemType(answer)]).toEqual([400, 'invalid-request']);
  return answer.body as ProblemBody;
}

const named = (body: ProblemBody) => body.errors?.map((error) => error.parameter);

describe('400 invalid-request names every bad parameter', () => {
  for (const path of ['/v1/quotes-random', '/v1/quotes-filter']) {
    it(`${path}: unknown, empty and repeated parameters`, async () => {
      expect(named(await badRequest(`${path}?categroy=grief`))).toEqual(['categroy']);
      expect(named(await badRequest(`${path}?category=`))).toEqual(['category']);
      expect(named(await badRequest(`${path}?mood=dark&mood=serious`))).toEqual(['mood']);
      expect(named(await badRequest(`${path}?Category=grief`))).toEqual(['Category']);
      const all = await badRequest(`${path}?categroy=grief&era=&mood=a&mood=b`);
      expect(named(all)).toEqual(['categroy', 'era', 'mood']);
      expect(all.detail).toContain('categroy');
    });

    it(`${path}: category or mood text that matches no taxonomy value`, async () => {
      const body = await badRequest(`${path}?category=xylophone&mood=sleepy`);
      expect(named(body)).toEqual(['category', 'mood']);
    });

    it(`${path}: length, era and faith values, listing the allowed ones`, async () => {
      const body = await badRequest(`${path}?era=Jurassic&length=tiny&faith=Pastafarian`);
      expect(body.errors).toEqual([
        { parameter: 'length', message: `must be one of ${taxonomy.lengths.join(', ')}` },
        { parameter: 'era', message: `must be one of ${taxonomy.eras.join(', ')}` },
        { parameter: 'faith', message: `must be one of ${taxonomy.faithTraditions.join(', ')}` },
      ]);
    });

    it(`${path}: over-long filter text`, async () => {
      expect(named(await badRequest(`${path}?category=${'a'.repeat(101)}`))).toEqual(['category']);
    });
  }

  it('quotes-random takes no limit or offset', async () => {
    expect(named(await badRequest('/v1/quotes-random?limit=5&offset=1'))).toEqual(['limit', 'offset']);
  });

  it('quotes-filter: limit and offset out of range or not integers', async () => {
    for (const limit of ['0', '1001', 'ten', '2.5', '-1']) {
      expect(named(await badRequest(`/v1/quotes-filter?limit=${limit}`))).toEqual(['limit']);
    }
    for (const offset of ['-1', '10000001', 'x', '1.5']) {
      expect(named(await badRequest(`/v1/quotes-filter?offset=${offset}`))).toEqual(['offset']);
    }
  });

  it('quotes-filter: schema, taxonomy and screening problems together', async () => {
    const body = await badRequest('/v1/quotes-filter?limit=0&era=Jurassic&colour=red&offset=-5&category=grief');
    expect(new Set(named(body))).toEqual(new Set(['limit', 'era', 'colour', 'offset']));
  });

  it('is not counted', async () => {
    const usage = await fixture.server.call('/v1/quotes-usage', { key });
    expect((usage.body as { calls_this_month: number }).calls_this_month).toBe(0);
  });
});

describe('404 no-match (quotes-random only)', () => {
  it('names the filters and carries the allowance headers: it is counted', async () => {
    const limited = await fixture.server.createKey({ plan: 'professional' });
    const answer = await fixture.server.call(
      '/v1/quotes-random?category=Athletes&era=Ancient&faith=Taoist&length=short',
      { key: limited.key },
    );
    expect([answer.status, problemType(answer)]).toEqual([404, 'no-match']);
    expect((answer.body as ProblemBody).detail).toBe(
      'No quote matches category=Athletes, length=short, era=Ancient, faith=Taoist.',
    );
    expect(answer.headers.get('x-ratelimit-remaining')).toBe('49999');
    await fixture.server.flushCounts();
    const usage = await fixture.server.operator.usage(limited.id);
    expect(usage.calls).toBe(1);
  });
});

describe('operations without parameters', () => {
  it('ignore a query string (they document no 400)', async () => {
    expect((await fixture.server.call('/v1/quotes-categories?x=1', { key })).status).toBe(200);
    expect((await fixture.server.call('/v1/quotes-usage?category=grief', { key })).status).toBe(200);
  });
});
