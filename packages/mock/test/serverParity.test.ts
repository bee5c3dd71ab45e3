import { replaceCorpus } from '@quotes/corpus';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { type RunningServer, startServer } from '@quotes/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocsFront, type RunningDocsFront } from '../src/docsFront.js';
import { exampleQuotes } from '../src/exampleQuotes.js';
import { type RunningMock, startMock } from '../src/index.js';
import { ask, refusals } from './parityRequests.js';
import { testConfig } from '@quotes/server/testing';

/**
 * The mock (Prism behind its front) and the real server on a real PostgreSQL whose corpus is the
 * mock's example quotes (in the same order), given the same requests: the same refusals (status,
 * problem type, Allow, errors), the same pages, counts and headers, plan by plan.
 */
let database: TestDatabase;
let server: RunningServer;
let prism: RunningMock;
/** The mock on its default plan (professional), and one on the trial plan. */
let mock: RunningDocsFront;
let trialMock: RunningDocsFront;
/** Server keys: platform (allows https://app.example), professional, trial. */
let key: string;
let professionalKey: string;
let trialKey: string;

beforeAll(async () => {
  [database, prism] = await Promise.all([createTestDatabase(), startMock()]);
  // Scores falling with the position: the server ranks the examples in the order the mock holds them.
  const rows = exampleQuotes.map((quote, position) => ({
    text: quote.text,
    author: quote.author,
    category: quote.category,
    secondary_category: quote.secondary_category,
    moods: quote.mood.split(','),
    era: quote.era,
    faith_tradition: quote.faith_tradition,
    score: exampleQuotes.length - position,
  }));
  await replaceCorpus(database, rows, { source: "the mock's examples" });
  server = await startServer({ config: testConfig(), database, shutdownGraceMs: 1000 });
  const create = async (plan: string, allowedOrigins: string[] = []) =>
    (await server.operator.createKey({ client: `Parity ${plan}`, plan, allowedOrigins })).key;
  [key, professionalKey, trialKey] = await Promise.all([
    create('platform', ['https://app.example']),
    create('professional'),
    create('trial'),
  ]);
  [mock, trialMock] = await Promise.all([
    createDocsFront({ upstream: prism.url, port: 0 }),
    createDocsFront({ upstream: prism.url, port: 0, plan: 'trial' }),
  ]);
});
afterAll(async () => {
  await mock?.close();
  await trialMock?.close();
  await prism?.stop();
  await server?.close();
  await database?.drop();
});

const withKey = (): Record<string, string> => ({ 'X-API-Key': key });

describe('the mock refuses what the server refuses without data, the same way', () => {
  it.each(refusals)('%s', async (_name, method, path, headers) => {
    const init = { method, headers: headers(key) };
    const [fromServer, fromMock] = await Promise.all([ask(server.url, path, init), ask(mock.url, path, init)]);
    expect(fromServer.status).toBeGreaterThanOrEqual(400);
    expect(fromServer.instanceIsRequestId).toBe(true);
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

type Json = Record<string, unknown>;

async function json(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${base}${path}`, { headers });
  return { status: response.status, body: (await response.json()) as Json };
}

/** A valid combination that none of the examples fits: the server answers it 404 no-match. */
const fitsNone = '?category=love&mood=dark&era=Present&length=Long&faith=Taoist';

describe('the mock answers as the server does from the same quotes', () => {
  it('quotes-filter: the same pages, paging past the first, limit capped at the plan largest page', async () => {
    for (const [query, pages] of [
      ['?category=grief&era=Ancient', 2],
      ['?era=Early+Modern&length=Medium', 2],
      ['?faith=Taoist&mood=reflective', 2],
      ['?mood=inspirational&limit=5&offset=3', 2],
      ['?category=GRIEF+%26+loss&length=MEDIUM&era=early+modern', 1],
      ['?limit=1000', 2],
      ['?offset=100000', 0],
      [fitsNone, 0],
    ] as const) {
      const path = `/v1/quotes-filter${query}`;
      const headers = { 'X-API-Key': professionalKey };
      const [fromServer, fromMock] = await Promise.all([
        json(server.url, path, headers),
        json(mock.url, path, headers),
      ]);
      expect(fromServer.status, path).toBe(200);
      const { total, limit } = fromServer.body as { total: number; limit: number };
      expect(total, path).toBeGreaterThanOrEqual(pages === 2 ? limit + 1 : pages);
      if (query === fitsNone) {
        // The mock's page holds the quote it adapts to the combination; the server has none.
        expect(total).toBe(0);
        expect(fromMock.body).toMatchObject({ total: 1, has_more: false });
        continue;
      }
      expect(fromMock, path).toEqual(fromServer);
    }
    const capped = await json(mock.url, '/v1/quotes-filter?limit=1000', withKey());
    expect(capped.body.limit).toBe(50);
    const paged = await json(mock.url, '/v1/quotes-filter?mood=inspirational&limit=5&offset=3', withKey());
    expect(paged.body).toMatchObject({ limit: 5, offset: 3, has_more: true });
  });

  it('on the trial plan: the trial page and the refusals of filters beyond the plan', async () => {
    const headers = { 'X-API-Key': trialKey };
    const path = '/v1/quotes-filter?limit=1000';
    const [fromServer, fromMock] = await Promise.all([
      json(server.url, path, headers),
      json(trialMock.url, path, headers),
    ]);
    expect(fromServer.body.limit).toBe(10);
    expect(fromMock).toEqual(fromServer);
    for (const refused of ['/v1/quotes-random?category=grief&era=Ancient', '/v1/quotes-filter?faith=Taoist']) {
      const [server403, mock403] = await Promise.all([
        ask(server.url, refused, { headers }),
        ask(trialMock.url, refused, { headers }),
      ]);
      expect(server403.type, refused).toBe('urn:quotes:problem:plan-limit');
      expect(mock403).toEqual(server403);
    }
  });

  it('quotes-random: one of the quotes the server matches; a combination fitting none gets a quote adapted to it', async () => {
    const headers = { 'X-API-Key': professionalKey };
    const matches = await json(server.url, '/v1/quotes-filter?category=grief&era=Ancient&limit=50', headers);
    const ids = (matches.body.quotes as { id: string }[]).map((quote) => quote.id);
    for (let call = 0; call < 5; call += 1) {
      const drawn = await json(mock.url, '/v1/quotes-random?category=grief&era=Ancient', headers);
      expect(ids).toContain(drawn.body.id);
    }
    const [none, adapted] = await Promise.all([
      ask(server.url, `/v1/quotes-random${fitsNone}`, { headers }),
      json(mock.url, `/v1/quotes-random${fitsNone}`, headers),
    ]);
    expect([none.status, none.type]).toEqual([404, 'urn:quotes:problem:no-match']);
    expect(adapted.status).toBe(200);
    expect(adapted.body).toMatchObject({
      category: 'Love & Relationships',
      era: 'Present',
      length: 'Long',
      faith_tradition: 'Taoist',
    });
    expect(String(adapted.body.mood).split(',')).toContain('dark');
    const again = await json(mock.url, `/v1/quotes-random${fitsNone}`, headers);
    expect(again.body).toEqual(adapted.body);
  });

  it("no-match only when asked for with Prefer: code=404, as the server's 404", async () => {
    const path = '/v1/quotes-random?category=love&mood=dark&era=Present&length=Long&faith=Taoist';
    const headers = { 'X-API-Key': professionalKey };
    const fromServer = await fetch(`${server.url}${path}`, { headers });
    const fromMock = await fetch(`${mock.url}${path}`, { headers: { ...headers, Prefer: 'code=404' } });
    expect([fromServer.status, fromMock.status]).toEqual([404, 404]);
    const [serverBody, mockBody] = [(await fromServer.json()) as Json, (await fromMock.json()) as Json];
    expect(mockBody.instance).toBe(fromMock.headers.get('x-request-id'));
    expect({ ...mockBody, instance: undefined }).toEqual({ ...serverBody, instance: undefined });
    expect(fromMock.headers.get('x-ratelimit-remaining')).not.toBeNull();
  });

  it("the empty result with Prefer: example=empty, as the server's for a filter no quote matches", async () => {
    const headers = { 'X-API-Key': professionalKey };
    for (const path of [`/v1/quotes-filter${fitsNone}&limit=5`, `/v1/quotes-random${fitsNone}`]) {
      const [fromServer, fromMock] = await Promise.all([
        json(server.url, path, headers),
        json(mock.url, path, { ...headers, Prefer: 'example=empty' }),
      ]);
      expect(fromMock.status, path).toBe(fromServer.status);
      expect({ ...fromMock.body, instance: undefined }, path).toEqual({ ...fromServer.body, instance: undefined });
    }
  });

  it('quotes-categories: all 43 categories with the counts of the examples, the same body and ETag', async () => {
    const headers = { 'X-API-Key': professionalKey };
    const [fromServer, fromMock] = await Promise.all([
      fetch(`${server.url}/v1/quotes-categories`, { headers }),
      fetch(`${mock.url}/v1/quotes-categories`, { headers }),
    ]);
    const [serverText, mockText] = await Promise.all([fromServer.text(), fromMock.text()]);
    const body = JSON.parse(mockText) as { categories: { count: number }[]; total_categories: number };
    expect(body.categories).toHaveLength(43);
    expect(body.total_categories).toBe(43);
    expect(body.categories.reduce((sum, category) => sum + category.count, 0)).toBe(exampleQuotes.length);
    expect(mockText).toBe(serverText);
    const etag = fromMock.headers.get('etag')!;
    expect(etag).toBe(fromServer.headers.get('etag'));
    expect(fromMock.headers.get('cache-control')).toBe(fromServer.headers.get('cache-control'));
    const revalidated = await fetch(`${mock.url}/v1/quotes-categories`, {
      headers: { ...headers, 'If-None-Match': etag },
    });
    expect([revalidated.status, await revalidated.text()]).toEqual([304, '']);
  });

  it('allowance headers agree with each other and with the server, plan by plan', async () => {
    const platformMock = await createDocsFront({ upstream: prism.url, port: 0, plan: 'platform' });
    try {
      for (const [base, serverKey] of [
        [mock.url, professionalKey],
        [trialMock.url, trialKey],
        [platformMock.url, key],
      ] as const) {
        const headers = { 'X-API-Key': serverKey };
        const [fromServer, fromMock] = await Promise.all([
          fetch(`${server.url}/v1/quotes-random`, { headers }),
          fetch(`${base}/v1/quotes-random`, { headers }),
        ]);
        await Promise.all([fromServer.body?.cancel(), fromMock.body?.cancel()]);
        const names = ['ratelimit-policy', 'x-ratelimit-limit'];
        for (const name of names) expect(fromMock.headers.get(name), name).toBe(fromServer.headers.get(name));
        // A trial's period ends at its key's expiry: the mock's key and the server's were issued a moment apart.
        const validity = fromMock.headers.get('ratelimit-policy')?.startsWith('"validity"') ?? false;
        const resets = [fromMock, fromServer].map((answer) => Number(answer.headers.get('x-ratelimit-reset')));
        expect(Math.abs(resets[0]! - resets[1]!)).toBeLessThanOrEqual(validity ? 5 : 0);
        expect(fromMock.headers.get('ratelimit') === null).toBe(fromServer.headers.get('ratelimit') === null);
        const limited = fromMock.headers.get('ratelimit');
        if (limited === null) continue;
        const [, remaining, untilReset] = /;r=(\d+);t=(\d+)$/.exec(limited)!;
        expect(remaining).toBe(fromMock.headers.get('x-ratelimit-remaining'));
        const reset = Number(fromMock.headers.get('x-ratelimit-reset'));
        expect(Math.abs(reset - Date.now() / 1000 - Number(untilReset))).toBeLessThan(2);
      }
    } finally {
      await platformMock.close();
    }
  });

  it('quotes-usage: the calls the mock counted, as the server counts them', async () => {
    const fresh = (await server.operator.createKey({ client: 'Usage parity', plan: 'professional' })).key;
    const headers = { 'X-API-Key': fresh };
    for (const path of [
      '/v1/quotes-random',
      '/v1/quotes-filter?mood=dark',
      '/v1/quotes-categories',
      '/v1/quotes-filter?era=Moderm',
      '/v1/quotes-usage',
    ]) {
      const answers = await Promise.all([
        fetch(`${server.url}${path}`, { headers }),
        fetch(`${mock.url}${path}`, { headers }),
      ]);
      await Promise.all(answers.map((answer) => answer.body?.cancel()));
    }
    const [fromServer, fromMock] = await Promise.all([
      json(server.url, '/v1/quotes-usage', headers),
      json(mock.url, '/v1/quotes-usage', headers),
    ]);
    expect(fromServer.body.calls_this_month).toBe(3);
    expect({ ...fromMock.body, client: undefined }).toEqual({ ...fromServer.body, client: undefined });
  });

  it('X-Request-Id: a sane one sent is echoed, else a UUID, on every answer', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const path of ['/v1/quotes-random', '/v1/quotes-usage', '/v1/nothing', '/docs']) {
      for (const base of [server.url, mock.url]) {
        const echoed = await fetch(`${base}${path}`, { headers: { ...withKey(), 'X-Request-Id': 'trace-7.a:1' } });
        const made = await fetch(`${base}${path}`, { headers: { ...withKey(), 'X-Request-Id': 'not sane' } });
        await Promise.all([echoed.body?.cancel(), made.body?.cancel()]);
        expect(echoed.headers.get('x-request-id'), `${base}${path}`).toBe('trace-7.a:1');
        expect(made.headers.get('x-request-id'), `${base}${path}`).toMatch(uuid);
      }
    }
  });
});

/**
 * A call as a client that keeps to its plan makes it: a `rate-limited` 429 (the mock holds the
 * plan's calls per second, as the server does) is waited out by its Retry-After, at most 3 times.
 */
async function withinRate(url: string): Promise<Response> {
  for (let tries = 0; ; tries += 1) {
    const response = await fetch(url, { headers: withKey() });
    if (response.status !== 429 || tries === 3) return response;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? '1') * 1000));
  }
}

describe('the mock answers vary and fit the request', () => {
  it('quotes-random: several quotes over calls, each fitting the filters', async () => {
    const seen = new Set<string>();
    for (let call = 0; call < 40; call += 1) {
      const response = await withinRate(`${mock.url}/v1/quotes-random`);
      expect(response.status).toBe(200);
      seen.add(((await response.json()) as { id: string }).id);
    }
    expect(seen.size).toBeGreaterThan(30);
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
        const response = await withinRate(`${mock.url}/v1/quotes-random?${query}`);
        expect(response.status, query).toBe(200);
        const quote = (await response.json()) as Record<string, string>;
        expect(check(quote), `${query}: ${JSON.stringify(quote)}`).toBe(true);
      }
    }
  });

  it('leaves a request with Prefer to the contract examples', async () => {
    const response = await fetch(`${mock.url}/v1/quotes-random?category=grief`, {
      headers: { ...withKey(), Prefer: 'example=revoked, code=403' },
    });
    expect(response.status).toBe(403);
  });
});
