import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { type RunningServer, startServer } from '@quotes/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocsFront, type RunningDocsFront } from '../src/docsFront.js';
import { type RunningMock, startMock } from '../src/index.js';

/**
 * The mock (Prism behind its front) and the real server on a real PostgreSQL, given the same
 * requests that the contract refuses without data: same status, problem type, Allow and errors.
 */
let database: TestDatabase;
let server: RunningServer;
let prism: RunningMock;
let mock: RunningDocsFront;
let key: string;

beforeAll(async () => {
  [database, prism] = await Promise.all([createTestDatabase(), startMock()]);
  server = await startServer({ database, port: 0, shutdownGraceMs: 1000 });
  key = (
    await server.operator.createKey({ client: 'Parity', plan: 'platform', allowedOrigins: ['https://app.example'] })
  ).key;
  mock = await createDocsFront({ upstream: prism.url, port: 0 });
});
afterAll(async () => {
  await mock?.close();
  await prism?.stop();
  await server?.close();
  await database?.drop();
});

interface Seen {
  status: number;
  type: string | undefined;
  allow: string | null;
  errors: unknown;
}

async function ask(base: string, path: string, init: RequestInit): Promise<Seen> {
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  const body = text && response.headers.get('content-type') === 'application/problem+json' ? JSON.parse(text) : {};
  return { status: response.status, type: body.type, allow: response.headers.get('allow'), errors: body.errors };
}

const withKey = (): Record<string, string> => ({ 'X-API-Key': key });

const refusals: Array<[string, string, string, () => Record<string, string>]> = [
  ['no key', 'GET', '/v1/quotes-random', () => ({})],
  ['Authorization not Bearer', 'GET', '/v1/quotes-usage', () => ({ Authorization: 'Basic eDp5' })],
  ['two different keys', 'GET', '/v1/quotes-random', () => ({ ...withKey(), Authorization: 'Bearer qk_other' })],
  ['empty value', 'GET', '/v1/quotes-random?category=', withKey],
  ['repeated parameter', 'GET', '/v1/quotes-filter?mood=hope&mood=joy', withKey],
  ['unknown parameter', 'GET', '/v1/quotes-random?colour=red', withKey],
  ['era outside the enum', 'GET', '/v1/quotes-random?era=Moderm', withKey],
  ['category matching nothing', 'GET', '/v1/quotes-filter?category=zzz', withKey],
  ['hexadecimal limit', 'GET', '/v1/quotes-filter?limit=0x10', withKey],
  ['limit 0 and negative offset', 'GET', '/v1/quotes-filter?limit=0&offset=-1', withKey],
  ['everything wrong at once', 'GET', '/v1/quotes-filter?length=Huge&faith=&x=1&limit=1e1', withKey],
  ['unknown path', 'GET', '/v1/quotes', withKey],
  ['trailing slash', 'GET', '/v1/quotes-random/', withKey],
  ['outside /v1', 'GET', '/v2/quotes-random', withKey],
  ['POST', 'POST', '/v1/quotes-random', withKey],
  ['DELETE', 'DELETE', '/v1/quotes-usage', withKey],
  ['PUT without a key', 'PUT', '/v1/quotes-filter', () => ({})],
];

describe('the mock refuses what the server refuses without data, the same way', () => {
  it.each(refusals)('%s', async (_name, method, path, headers) => {
    const init = { method, headers: headers() };
    const [fromServer, fromMock] = await Promise.all([ask(server.url, path, init), ask(mock.url, path, init)]);
    expect(fromServer.status).toBeGreaterThanOrEqual(400);
    expect(fromMock).toEqual(fromServer);
  });

  it('answers preflights and exposes the same headers', async () => {
    const init = {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' },
    };
    const names = [
      'allow',
      'access-control-allow-origin',
      'access-control-allow-methods',
      'access-control-allow-headers',
      'access-control-expose-headers',
      'access-control-max-age',
    ];
    const [fromServer, fromMock] = await Promise.all([
      fetch(`${server.url}/v1/quotes-filter`, init),
      fetch(`${mock.url}/v1/quotes-filter`, init),
    ]);
    expect(fromMock.status).toBe(fromServer.status);
    for (const name of names) expect(fromMock.headers.get(name), name).toBe(fromServer.headers.get(name));
  });

  it('serves a browser call readably, as the server does for an allowed origin', async () => {
    const init = { headers: { ...withKey(), Origin: 'https://app.example' } };
    const [fromServer, fromMock] = await Promise.all([
      fetch(`${server.url}/v1/quotes-usage`, init),
      fetch(`${mock.url}/v1/quotes-usage`, init),
    ]);
    expect([fromServer.status, fromMock.status]).toEqual([200, 200]);
    expect(fromMock.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(fromMock.headers.get('access-control-expose-headers')).toBe(
      fromServer.headers.get('access-control-expose-headers'),
    );
  });

  it("sends the server's nosniff and Cache-Control on answers and refusals, and not on the reference page", async () => {
    for (const [path, headers] of [
      ['/v1/quotes-usage', withKey()],
      ['/v1/quotes-random', withKey()],
      ['/v1/quotes-filter?category=grief&limit=2', withKey()],
      ['/v1/quotes-categories', withKey()],
      ['/v1/quotes-random', {}],
      ['/v1/quotes-random?era=Moderm', withKey()],
      ['/v1/quotes', withKey()],
    ] as const) {
      const [fromServer, fromMock] = await Promise.all([
        fetch(`${server.url}${path}`, { headers }),
        fetch(`${mock.url}${path}`, { headers }),
      ]);
      // The server's database is empty, so its statuses differ (404 for quotes); the headers may not.
      await Promise.all([fromServer.body?.cancel(), fromMock.body?.cancel()]);
      for (const name of ['x-content-type-options', 'cache-control']) {
        expect(fromServer.headers.get(name), `${name} of the server's ${path}`).not.toBeNull();
        expect(fromMock.headers.get(name), `${name} of ${path}`).toBe(fromServer.headers.get(name));
      }
    }
    const page = await fetch(`${mock.url}/docs`);
    await page.body?.cancel();
    expect(page.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers HEAD as GET without a body', async () => {
    const response = await fetch(`${mock.url}/v1/quotes-usage`, { method: 'HEAD', headers: withKey() });
    expect([response.status, await response.text()]).toEqual([200, '']);
  });

  it('gives each documented status for Prefer: code=N whatever Accept says', async () => {
    for (const [code, path] of [
      ['400', '/v1/quotes-filter'],
      ['401', '/v1/quotes-random'],
      ['403', '/v1/quotes-random'],
      ['404', '/v1/quotes-random'],
      ['429', '/v1/quotes-random'],
      ['503', '/v1/quotes-categories'],
      ['304', '/v1/quotes-categories'],
    ] as const) {
      const response = await fetch(`${mock.url}${path}`, {
        headers: { ...withKey(), Accept: 'application/json', Prefer: `code=${code}` },
      });
      expect(response.status, `${code} ${path}`).toBe(Number(code));
      await response.body?.cancel();
    }
  });
});

describe('the mock answers vary and fit the request', () => {
  it('quotes-random: several quotes over calls, each fitting the filters; none fitting is no-match', async () => {
    const seen = new Set<string>();
    for (let call = 0; call < 40; call += 1) {
      const response = await fetch(`${mock.url}/v1/quotes-random`, { headers: withKey() });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('10000');
      seen.add(((await response.json()) as { id: string }).id);
    }
    expect(seen.size).toBeGreaterThan(3);
    for (const [query, check] of [
      ['category=grief', (quote: Record<string, string>) => quote.category === 'Grief & Loss'],
      [
        'era=ancient&faith=taoist',
        (quote: Record<string, string>) => quote.era === 'Ancient' && quote.faith_tradition === 'Taoist',
      ],
      ['mood=humor', (quote: Record<string, string>) => quote.mood!.split(',').includes('humorous')],
      ['length=long', (quote: Record<string, string>) => quote.length === 'Long'],
    ] as const) {
      for (let call = 0; call < 5; call += 1) {
        const response = await fetch(`${mock.url}/v1/quotes-random?${query}`, { headers: withKey() });
        expect(response.status, query).toBe(200);
        const quote = (await response.json()) as Record<string, string>;
        expect(check(quote), `${query}: ${JSON.stringify(quote)}`).toBe(true);
      }
    }
    const none = await ask(mock.url, '/v1/quotes-random?era=Present&faith=Jewish', { headers: withKey() });
    expect([none.status, none.type]).toEqual([404, 'urn:quotes:problem:no-match']);
  });

  it('quotes-filter: the page of the fitting examples, with limit and offset applied', async () => {
    const response = await fetch(`${mock.url}/v1/quotes-filter?category=grief&limit=1&offset=1`, {
      headers: withKey(),
    });
    const page = (await response.json()) as { quotes: { category: string }[]; total: number; has_more: boolean };
    expect(response.status).toBe(200);
    expect(page.total).toBe(3);
    expect(page.quotes.map((quote) => quote.category)).toEqual(['Grief & Loss']);
    expect(page.has_more).toBe(true);
  });

  it('leaves a request with Prefer to the contract examples', async () => {
    const response = await fetch(`${mock.url}/v1/quotes-random?category=grief`, {
      headers: { ...withKey(), Prefer: 'example=revoked, code=403' },
    });
    expect(response.status).toBe(403);
  });
});
