import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corsAllowedHeaders, corsExposedHeaders } from '../../src/http/crossOrigin.js';
import { type HttpFixture, httpFixture } from '../support/httpFixture.js';
import { problemType } from '../../testing/testServer.js';

let fixture: HttpFixture;
let allowed: string;
let serverSide: string;
const page = 'https://app.example';

beforeAll(async () => {
  fixture = await httpFixture();
  allowed = (await fixture.server.createKey({ plan: 'starter', allowedOrigins: [page, 'http://localhost:*'] })).key;
  serverSide = (await fixture.server.createKey({ plan: 'starter' })).key;
});
afterAll(() => fixture?.close());

const usage = async (key: string) =>
  ((await fixture.server.call('/v1/quotes-usage', { key })).body as { calls_this_month: number }).calls_this_month;

describe('preflights', () => {
  it('are answered 204 on the four paths, with the methods, the key headers and a max age', async () => {
    for (const path of ['/v1/quotes-random', '/v1/quotes-filter', '/v1/quotes-categories', '/v1/quotes-usage']) {
      const answer = await fetch(`${fixture.server.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://anyone.example',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'x-api-key,if-none-match',
        },
      });
      expect(answer.status, path).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBe('https://anyone.example');
      expect(answer.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
      expect(answer.headers.get('access-control-allow-headers')).toBe(corsAllowedHeaders);
      expect(answer.headers.get('access-control-max-age')).toBe('600');
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
      expect(answer.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('on an unknown path are the 404 it is', async () => {
    const answer = await fixture.server.call('/v1/quotes', {
      method: 'OPTIONS',
      headers: { Origin: page, 'Access-Control-Request-Method': 'GET' },
    });
    expect([answer.status, problemType(answer)]).toEqual([404, 'not-found']);
  });
});

describe('browser calls', () => {
  it('from an origin the key allows are served, counted, with the allowance headers exposed', async () => {
    const before = await usage(allowed);
    for (const origin of [page, 'http://localhost:5173']) {
      const answer = await fixture.server.call('/v1/quotes-random', { key: allowed, headers: { Origin: origin } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
      expect(answer.headers.get('access-control-expose-headers')).toBe(corsExposedHeaders);
      expect(answer.headers.get('vary')).toContain('Origin');
      expect(answer.headers.get('x-ratelimit-remaining')).not.toBeNull();
    }
    expect(await usage(allowed)).toBe(before + 2);
  });

  it('from another origin are a readable 403 origin-not-allowed, not counted', async () => {
    const before = await usage(serverSide);
    for (const [key, origin] of [
      [serverSide, page],
      [allowed, 'https://elsewhere.example'],
      [allowed, 'null'],
    ] as const) {
      const answer = await fixture.server.call('/v1/quotes-random', { key, headers: { Origin: origin } });
      expect([answer.status, problemType(answer)], origin).toEqual([403, 'origin-not-allowed']);
      expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
      expect((answer.body as { detail: string }).detail).toContain(origin);
    }
    expect(await usage(serverSide)).toBe(before);
  });

  it('with a bad key are the 401 they are, readable too', async () => {
    const answer = await fixture.server.call('/v1/quotes-random', { headers: { Origin: page } });
    expect([answer.status, problemType(answer)]).toEqual([401, 'missing-api-key']);
    expect(answer.headers.get('access-control-allow-origin')).toBe(page);
  });

  it('without Origin (server-side) are not restricted and carry no CORS headers', async () => {
    const answer = await fixture.server.call('/v1/quotes-random', { key: serverSide });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('follow a change of the key origins at once', async () => {
    const issued = await fixture.server.createKey({ plan: 'starter' });
    const call = () => fixture.server.call('/v1/quotes-usage', { key: issued.key, headers: { Origin: page } });
    expect((await call()).status).toBe(403);
    const view = await fixture.server.operator.setAllowedOrigins(issued.id, ['HTTPS://APP.EXAMPLE:443']);
    expect(view.allowedOrigins).toEqual([page]);
    expect((await call()).status).toBe(200);
    await fixture.server.operator.setAllowedOrigins(issued.id, []);
    expect((await call()).status).toBe(403);
  });
});
