import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Listening, listen } from '@quotes/docs/testing';
import { createDocsFront, type RunningDocsFront } from '../src/docsFront.js';

// The upstream stands for Prism: any answer reaching it is a 418, so the answers below are the mock's own.
let upstream: Listening;
let professional: RunningDocsFront;
let trial: RunningDocsFront;

beforeAll(async () => {
  upstream = await listen((_req, res) => {
    res.writeHead(418, { 'Content-Type': 'text/plain' });
    res.end('upstream');
  });
  [professional, trial] = await Promise.all([
    createDocsFront({ upstream: upstream.url, port: 0 }),
    createDocsFront({ upstream: upstream.url, port: 0, plan: 'trial' }),
  ]);
});
afterAll(async () => {
  await professional?.close();
  await trial?.close();
  await upstream?.close();
});

const trialUrl = () => trial.url;
const professionalUrl = () => professional.url;
const ask = (base: string, path: string, prefer: string) =>
  fetch(`${base}${path}`, { headers: { 'X-API-Key': 'anything', Prefer: prefer } });

describe("Prefer: code=429 on the mock's plan and period", () => {
  it("says the plan's allowance and waits until the month's end on a monthly plan", async () => {
    const answer = await ask(professional.url, '/v1/quotes-random', 'code=429');
    const body = (await answer.json()) as { detail: string; type: string };
    expect([answer.status, body.type]).toEqual([429, 'urn:quotes:problem:allowance-exhausted']);
    const now = new Date();
    const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    expect(body.detail).toBe(
      `All 50000 calls of this month are used; the allowance resets at ${new Date(nextMonth).toISOString().replace('.000Z', 'Z')}.`,
    );
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(Math.abs(retryAfter - (nextMonth - Date.now()) / 1000)).toBeLessThan(3);
    expect(answer.headers.get('x-ratelimit-limit')).toBe('50000');
  });

  it("waits until the trial key's 30 days end on the trial plan", async () => {
    const answer = await ask(trial.url, '/v1/quotes-filter', 'code=429');
    const body = (await answer.json()) as { detail: string };
    expect(answer.status).toBe(429);
    expect(body.detail).toMatch(/^All 1000 calls of this key's 30 days are used; the key expires at /);
    expect(Math.abs(Number(answer.headers.get('retry-after')) - 30 * 86400)).toBeLessThan(5);
    expect(answer.headers.get('ratelimit-policy')).toBe('"validity";q=1000;w=2592000');
  });
});

describe("the server's rate-limited 429s", () => {
  it.each([
    ['example=rate-limited', trialUrl, "This key's plan allows 10 calls per second; retry in 1 s."],
    ['code=429, example=rate-limited', professionalUrl, "This key's plan allows 50 calls per second; retry in 1 s."],
    [
      'example=calls-at-once',
      trialUrl,
      'More than 8 calls of this key at once (none finished within 3000 ms); retry in 1 s.',
    ],
  ])('Prefer: %s gives it, with Retry-After and no allowance headers, not counted', async (prefer, url, detail) => {
    const answer = await ask(url(), '/v1/quotes-random', prefer);
    const body = (await answer.json()) as { type: string; detail: string };
    expect([answer.status, body.type, body.detail]).toEqual([429, 'urn:quotes:problem:rate-limited', detail]);
    expect([answer.headers.get('retry-after'), answer.headers.get('x-ratelimit-remaining')]).toEqual(['1', null]);
  });

  it("holds a key to its plan's calls per second: of 20 calls at once on trial, 10 are answered, the rest refused", async () => {
    // A key of its own: the other tests' calls do not share its bucket.
    const headers = { 'X-API-Key': 'burst-key' };
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${trial.url}/v1/quotes-random`, { headers })),
    );
    const elapsedS = (performance.now() - started) / 1000;
    const seen = await Promise.all(
      answers.map(async (answer) => `${answer.status} ${((await answer.json()) as { type?: string }).type ?? ''}`),
    );
    const answered = seen.filter((line) => line.startsWith('200')).length;
    // The bucket holds 10 and refills 10 a second: the calls that arrived later than 0.1 s after
    // the first may find a call refilled (11 was seen once of several runs here).
    expect(answered).toBeGreaterThanOrEqual(10);
    expect(answered).toBeLessThanOrEqual(10 + Math.floor(elapsedS * 10));
    expect(seen.filter((line) => line === '429 urn:quotes:problem:rate-limited').length).toBe(20 - answered);
    expect(answers.find((answer) => answer.status === 429)?.headers.get('retry-after')).toBe('1');
    // The refusals were not counted, as on the server.
    const usage = (await (await fetch(`${trial.url}/v1/quotes-usage`, { headers })).json()) as {
      calls_in_period: number;
    };
    expect(usage.calls_in_period).toBe(answered);
  });
});

describe('CORS preflights', () => {
  it('let a page on another origin send Prefer and the key headers', async () => {
    const answer = await fetch(`${trial.url}/v1/quotes-random`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'prefer,x-api-key',
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-headers')).toBe(
      'X-API-Key, Authorization, If-None-Match, X-Request-Id, Prefer',
    );
  });
});

describe('Prefer: example=empty', () => {
  it('gives quotes-filter an empty page and quotes-random the no-match 404, both counted', async () => {
    const page = await ask(professional.url, '/v1/quotes-filter?category=grief&limit=5&offset=10', 'example=empty');
    expect(page.status).toBe(200);
    expect(await page.json()).toEqual({ quotes: [], total: 0, limit: 5, offset: 10, has_more: false });
    expect(page.headers.get('x-ratelimit-remaining')).not.toBeNull();
    const random = await ask(professional.url, '/v1/quotes-random?category=grief', 'example=empty');
    expect([random.status, ((await random.json()) as { type: string }).type]).toEqual([
      404,
      'urn:quotes:problem:no-match',
    ]);
  });
});

describe("the mock's reference page", () => {
  it('says it is the mock and offers no key request, nor links to pages only the service has', async () => {
    const html = await (await fetch(`${professional.url}/docs`)).text();
    expect(html).toContain('<title>Quote Retrieval Service (mock): API reference</title>');
    const reference = (await (await fetch(`${professional.url}/docs/reference.json`)).json()) as {
      info: { description: string };
      paths: Record<string, unknown>;
      tags: { name: string }[];
    };
    expect(reference.info.description).toContain('This page is served by the mock');
    expect(reference.info.description).not.toMatch(/\]\(\/(keys|terms)/);
    expect(Object.keys(reference.paths).every((path) => path.startsWith('/v1/'))).toBe(true);
    expect(reference.tags.map((tag) => tag.name)).not.toContain('Key requests');
    // Every root-relative link left in the description is one the mock answers.
    for (const [, link] of reference.info.description.matchAll(/\]\((\/[^)]*)\)/g)) {
      const response = await fetch(`${professional.url}${link}`, { redirect: 'manual' });
      expect(response.status, link).toBeLessThan(400);
    }
  });
});
