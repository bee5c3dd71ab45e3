import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, httpFixtureWithKey } from '../support/httpFixture.js';
import { problemType } from '../../testing/testServer.js';

let fixture: HttpFixture;
let key: string;

beforeAll(async () => ({ fixture, key } = await httpFixtureWithKey('starter', { corpus: false })));
afterAll(() => fixture?.close());

describe('paths and methods outside the contract', () => {
  it('answer 404 not-found as problem details, before any key check', async () => {
    for (const path of [
      '/v1',
      '/v1/quotes',
      '/v2/quotes-random',
      '/v1/quotes-random/extra',
      '/docs/assets/nothing.js',
    ]) {
      const answer = await fixture.server.call(path);
      expect([answer.status, problemType(answer)], path).toEqual([404, 'not-found']);
    }
  });

  it('answer 405 method-not-allowed with Allow on a known path', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const answer = await fixture.server.call('/v1/quotes-filter', { method, key });
      expect([answer.status, problemType(answer)]).toEqual([405, 'method-not-allowed']);
      expect(answer.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('a trailing slash is the unknown path it is: 404, not counted', async () => {
    for (const path of ['/v1/quotes-random/', '/v1/quotes-usage/', '/v1/quotes-filter//']) {
      const answer = await fixture.server.call(path, { key });
      expect([answer.status, problemType(answer)], path).toEqual([404, 'not-found']);
      expect((answer.body as { detail: string }).detail).toBe(
        `No operation at ${path}: paths are exact, without a trailing slash; the operations are listed at /docs.`,
      );
    }
    const usage = (await fixture.server.call('/v1/quotes-usage', { key })).body as { calls_this_month: number };
    expect(usage.calls_this_month).toBe(0);
  });
});

describe('odd requests', () => {
  it('HEAD is GET without a body: same status and headers, counted as GET is', async () => {
    const url = `${fixture.server.url}/v1/quotes-categories`;
    const head = await fetch(url, { method: 'HEAD', headers: { 'X-API-Key': key } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    const get = await fetch(url, { headers: { 'X-API-Key': key } });
    expect(get.headers.get('etag')).toBe(head.headers.get('etag'));
    expect(Number(get.headers.get('x-ratelimit-remaining'))).toBe(
      Number(head.headers.get('x-ratelimit-remaining')) - 1,
    );
    const refused = await fetch(`${fixture.server.url}/v1/quotes-filter?limit=0x10`, {
      method: 'HEAD',
      headers: { 'X-API-Key': key },
    });
    expect([refused.status, refused.headers.get('content-type'), await refused.text()]).toEqual([
      400,
      'application/problem+json',
      '',
    ]);
  });

  it('integers are decimal digits only: 0x10, 1e1, +5 and " 10" are a 400 naming the parameter', async () => {
    for (const value of ['0x10', '1e1', '%2B5', '%2010', '1.0']) {
      for (const name of ['limit', 'offset']) {
        const answer = await fixture.server.call(`/v1/quotes-filter?${name}=${value}`, { key });
        expect([answer.status, problemType(answer)], `${name}=${value}`).toEqual([400, 'invalid-request']);
        expect((answer.body as { errors: unknown[] }).errors, `${name}=${value}`).toEqual([
          { parameter: name, message: 'must be an integer' },
        ]);
      }
    }
  });

  it('broken percent-encoding is a 400 for the parameter, not a crash', async () => {
    const answer = await fixture.server.call('/v1/quotes-filter?category=%E0%A4%A&mood=%', { key });
    expect([answer.status, problemType(answer)]).toEqual([400, 'invalid-request']);
    expect((answer.body as { errors: { parameter: string }[] }).errors.map((error) => error.parameter)).toEqual([
      'category',
      'mood',
    ]);
  });
});

describe('content types', () => {
  it('are exactly application/json and application/problem+json, no charset', async () => {
    const ok = await fixture.server.call('/v1/quotes-usage', { key });
    expect(ok.contentType).toBe('application/json');
    const problem = await fixture.server.call('/v1/quotes-usage');
    expect(problem.contentType).toBe('application/problem+json');
  });
});

describe('an empty corpus', () => {
  it('gives no-match for a random quote and an empty page', async () => {
    const random = await fixture.server.call('/v1/quotes-random', { key });
    expect([random.status, problemType(random)]).toEqual([404, 'no-match']);
    const page = await fixture.server.call('/v1/quotes-filter', { key });
    expect(page.body).toEqual({ quotes: [], total: 0, limit: 10, offset: 0, has_more: false });
  });
});

describe('probes', () => {
  it('/healthz and /readyz answer without a key and are never counted', async () => {
    const health = await fixture.server.call('/healthz', { unchecked: true });
    expect([health.status, health.contentType]).toEqual([200, 'application/json']);
    const ready = await fixture.server.call('/readyz', { unchecked: true });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });
});
