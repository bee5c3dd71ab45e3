import { replaceCorpus } from '@quotes/corpus';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { browserSkipReason, type Listening, launchChromium, listen } from '@quotes/docs/testing';
import { type RunningServer, setUsage, startServer } from '@quotes/server';
import { testConfig } from '@quotes/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocsFront, type RunningDocsFront } from '../../src/docsFront.js';
import { exampleQuotes } from '../../src/exampleQuotes.js';
import { type RunningMock, startMock } from '../../src/index.js';

/** What the page saw of one answer: what a frontend reads (exposed headers only). */
interface Seen {
  status: number;
  type?: string;
  detail?: string;
  total?: number;
  retryAfter?: string | null;
  /** `TypeError: Failed to fetch` when the browser refused the call (CORS). */
  failed?: string;
}

interface PageWindow {
  ask(base: string, path: string, headers: Record<string, string>): Promise<Seen>;
  burst(base: string, path: string, headers: Record<string, string>, calls: number): Promise<Seen[]>;
}

// A frontend's page, served from an origin of its own: plain fetch, as any page calls the API.
const pageHtml = `<!doctype html>
<title>a frontend</title>
<script>
  async function ask(base, path, headers) {
    try {
      const response = await fetch(base + path, { headers });
      const text = await response.text();
      const body = text ? JSON.parse(text) : {};
      return {
        status: response.status,
        type: body.type,
        detail: body.detail,
        total: body.total,
        retryAfter: response.headers.get('Retry-After'),
      };
    } catch (error) {
      return { status: 0, failed: String(error) };
    }
  }
  window.ask = ask;
  window.burst = (base, path, headers, calls) =>
    Promise.all(Array.from({ length: calls }, () => ask(base, path, headers)));
</script>`;

/**
 * The same page, in Chromium, asks the mock (on the trial plan) and the real server (trial keys
 * allowing the page's origin) the same requests, `Prefer` included, and a burst: it must see the
 * same statuses and problem types from both. The server ignores `Prefer`; each request that
 * carries it is one the server answers that way by itself: its corpus lacks Ancient quotes (so
 * `example=empty` is what it answers), one key has used its allowance (`code=429`), and a burst
 * of one key beyond its plan's calls per second gets the 429 `example=rate-limited` shows.
 */
describe.skipIf(browserSkipReason !== undefined)('a page on another origin sees the mock as it sees the server', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let prism: RunningMock;
  let mock: RunningDocsFront;
  let site: Listening;
  let browser: Browser;
  let tab: Page;
  const keys = { fresh: '', usedUp: '', burst: '' };

  beforeAll(async () => {
    [database, prism, site] = await Promise.all([
      createTestDatabase(),
      startMock(),
      listen((_request, response) => {
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        response.end(pageHtml);
      }),
    ]);
    const rows = exampleQuotes
      .filter((quote) => quote.era !== 'Ancient')
      .map((quote, position) => ({
        text: quote.text,
        author: quote.author,
        category: quote.category,
        secondary_category: quote.secondary_category,
        moods: quote.mood.split(','),
        era: quote.era,
        faith_tradition: quote.faith_tradition,
        score: exampleQuotes.length - position,
      }));
    await replaceCorpus(database, rows, { source: "the mock's examples but the Ancient ones" });
    server = await startServer({ config: testConfig(), database, shutdownGraceMs: 1000 });
    const trialKey = async (client: string) =>
      server.operator.createKey({ client, plan: 'trial', allowedOrigins: [site.url] });
    const [fresh, usedUp, burst] = await Promise.all([trialKey('page'), trialKey('page used up'), trialKey('burst')]);
    await setUsage(server.database, usedUp.id, 1000);
    Object.assign(keys, { fresh: fresh.key, usedUp: usedUp.key, burst: burst.key });
    mock = await createDocsFront({ upstream: prism.url, port: 0, plan: 'trial' });
    browser = await launchChromium();
    tab = await browser.newPage();
    await tab.goto(`${site.url}/`);
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await mock?.close();
    await prism?.stop();
    await server?.close();
    await database?.drop();
  });

  const ask = (base: string, path: string, headers: Record<string, string>) =>
    tab.evaluate(([b, p, h]) => (globalThis as unknown as PageWindow).ask(b, p, h), [base, path, headers] as const);

  const requests: Array<[string, string, keyof typeof keys | undefined, Record<string, string>, Partial<Seen>]> = [
    ['a quote on one filter', '/v1/quotes-random?category=grief', 'fresh', {}, { status: 200 }],
    ['two filters', '/v1/quotes-random?category=grief&era=Modern', 'fresh', {}, { status: 403, type: 'plan-limit' }],
    ['faith on trial', '/v1/quotes-filter?faith=Buddhist', 'fresh', {}, { status: 403, type: 'plan-limit' }],
    ['a misspelt era', '/v1/quotes-random?era=Moderm', 'fresh', {}, { status: 400, type: 'invalid-request' }],
    ['no key', '/v1/quotes-usage', undefined, {}, { status: 401, type: 'missing-api-key' }],
    [
      'Prefer: example=empty on quotes-filter',
      '/v1/quotes-filter?era=Ancient',
      'fresh',
      { Prefer: 'example=empty' },
      { status: 200, total: 0 },
    ],
    [
      'Prefer: example=empty on quotes-random',
      '/v1/quotes-random?era=Ancient',
      'fresh',
      { Prefer: 'example=empty' },
      { status: 404, type: 'no-match' },
    ],
    [
      'Prefer: code=429',
      '/v1/quotes-random',
      'usedUp',
      { Prefer: 'code=429' },
      { status: 429, type: 'allowance-exhausted' },
    ],
  ];

  it.each(requests)('%s', async (_name, path, role, headers, expected) => {
    const sent = { ...headers, ...(role ? { 'X-API-Key': keys[role] } : {}) };
    const [fromServer, fromMock] = [await ask(server.url, path, sent), await ask(mock.url, path, sent)];
    const shape = (seen: Seen) => ({
      status: seen.status,
      failed: seen.failed,
      type: seen.type?.replace('urn:quotes:problem:', ''),
      ...(expected.total !== undefined ? { total: seen.total } : {}),
    });
    expect(shape(fromServer)).toEqual({ failed: undefined, type: undefined, ...expected });
    expect(shape(fromMock)).toEqual(shape(fromServer));
  });

  it("a burst of one key beyond its plan's calls per second: 10 answers and 429 rate-limited, the one Prefer: example=rate-limited shows", async () => {
    const burst = async (base: string) => {
      const started = performance.now();
      const seen = await tab.evaluate(
        ([b, key]) =>
          (globalThis as unknown as PageWindow).burst(b, '/v1/quotes-random?category=grief', { 'X-API-Key': key }, 20),
        [base, keys.burst] as const,
      );
      return { seen, elapsedS: (performance.now() - started) / 1000 };
    };
    const fromServer = await burst(server.url);
    const fromMock = await burst(mock.url);
    const kinds = (seen: Seen[]) => [...new Set(seen.map((one) => `${one.status} ${one.type ?? ''}`))].sort();
    expect(kinds(fromServer.seen)).toEqual(['200 ', '429 urn:quotes:problem:rate-limited']);
    expect(kinds(fromMock.seen)).toEqual(kinds(fromServer.seen));
    for (const { seen, elapsedS } of [fromServer, fromMock]) {
      const answered = seen.filter((one) => one.status === 200).length;
      // The bucket holds 10 and refills 10 a second while the 20 calls arrive.
      expect(answered).toBeGreaterThanOrEqual(10);
      expect(answered).toBeLessThanOrEqual(10 + Math.floor(elapsedS * 10));
    }
    const refusal = fromServer.seen.find((one) => one.status === 429)!;
    const shown = await ask(mock.url, '/v1/quotes-random', { 'X-API-Key': 'any', Prefer: 'example=rate-limited' });
    expect(shown).toEqual(refusal);
    expect(shown).toMatchObject({
      detail: "This key's plan allows 10 calls per second; retry in 1 s.",
      retryAfter: '1',
    });
  });
});
