import { fileURLToPath } from 'node:url';
import { apiReferenceRouter } from '@quotes/docs';
import {
  browserSkipReason,
  contractOperationLabels,
  listen,
  type OpenedReferencePage,
  openReferencePage,
  type ReferencePage,
} from '@quotes/docs/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/index.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { createTestDatabase } from '@quotes/database/testing';
import { testConfig } from '../../testing/testConfig.js';

/** The real server on a fresh database with the fixture corpus, and a key as `npm start` makes one. */
async function startServerWithKey(): Promise<{ server: RunningServer; key: string; close(): Promise<void> }> {
  const database = await createTestDatabase();
  await loadFixtureCorpus(database);
  const server = await startServer({
    config: testConfig(),
    database,
    shutdownGraceMs: 2000,
  });
  const issued = await server.operator.createKey({ client: 'Docs page browser test', plan: 'professional' });
  const close = async () => {
    await server.close();
    await database.drop();
  };
  return { server, key: issued.key, close };
}

// One server for the file: the routes' tests read it without a key, and the key the page uses
// is the browser's alone.
let server: RunningServer;
let key: string;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ server, key, close: stop } = await startServerWithKey());
});
afterAll(() => stop?.());

describe('the API reference routes on the real server', () => {
  it('serves /docs, /openapi.yaml and /openapi.json without a key, and redirects / to /docs', async () => {
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('/docs/assets/scalar-standalone.js');
    const bundle = await fetch(`${server.url}/docs/assets/scalar-standalone.js`);
    expect(bundle.status).toBe(200);
    await bundle.body?.cancel();
    expect((await fetch(`${server.url}/openapi.yaml`)).headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(((await (await fetch(`${server.url}/openapi.json`)).json()) as { openapi: string }).openapi).toBe('3.0.3');
    const root = await fetch(`${server.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/docs');
  });

  // @quotes/docs walks its router's page in Chromium at each reading size (readability.browser.test.ts):
  // the server serves those same bytes under the same policy, so that walk holds for this page too.
  it("serves @quotes/docs' reference page as that package's router alone serves it: the same page, data and policy", async () => {
    const alone = await listen(express().use(apiReferenceRouter()));
    try {
      for (const path of ['/docs', '/docs/reference.json', '/docs/assets/scalar-standalone.js']) {
        const [served, reference] = await Promise.all([fetch(`${server.url}${path}`), fetch(`${alone.url}${path}`)]);
        expect(served.status, path).toBe(200);
        for (const header of ['content-type', 'content-security-policy'])
          expect(served.headers.get(header), `${path} ${header}`).toBe(reference.headers.get(header));
        expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(await reference.arrayBuffer())), path).toBe(
          true,
        );
      }
    } finally {
      await alone.close();
    }
  });

  it('still asks for a key on the API itself', async () => {
    expect((await fetch(`${server.url}/v1/quotes-random`)).status).toBe(401);
  });
});

// A reader's walk through the page: the longest step, every operation after a reload, takes about 20 s alone.
describe.skipIf(browserSkipReason !== undefined)(
  'the API reference page in Chromium, against the real server',
  { timeout: 90_000 },
  () => {
    let opened: OpenedReferencePage;
    let reference: ReferencePage;

    beforeAll(async () => {
      opened = await openReferencePage(`${server.url}/`);
      ({ reference } = opened);
    });
    afterAll(() => opened?.close());

    it('lands on /docs, lists the operations in the sidebar and calls this server by default', async () => {
      expect(new URL(reference.page.url()).pathname).toBe('/docs');
      expect(await reference.sidebarOperations()).toEqual(contractOperationLabels());
      expect(await reference.selectedServer()).toBe(server.url);
    });

    it('finds an operation through search', async () => {
      expect(await reference.search('random')).toContainEqual(expect.stringContaining('/v1/quotes-random'));
    });

    it('shows curl, Python and @quotes/client samples calling this server', async () => {
      const samples = await reference.samples('getRandomQuote');
      expect(Object.keys(samples).sort()).toEqual(['@quotes/client', 'Python Requests', 'Shell Curl']);
      expect(samples['Shell Curl']).toContain(`curl '${server.url}/v1/quotes-random?category=grief'`);
      expect(samples['Python Requests']).toContain(`requests.get("${server.url}/v1/quotes-random",`);
      expect(samples['@quotes/client']).toContain(`createQuotesClient({ baseUrl: '${server.url}'`);
      expect(samples['@quotes/client']).toContain("quotes.withMeta.getRandomQuote({ category: 'grief' })");
    });

    it("shows the plans' error responses with their problem types", async () => {
      expect(await reference.documentedStatuses('getRandomQuote')).toEqual([
        '200',
        '400',
        '401',
        '403',
        '404',
        '429',
        '503',
      ]);
      const unauthorized = await reference.documentedResponse('getRandomQuote', '401');
      expect(unauthorized).toContain('urn:quotes:problem:missing-api-key');
      expect(await reference.documentedResponse('getRandomQuote', '403')).toContain('urn:quotes:problem:plan-limit');
      const exhausted = await reference.documentedResponse('getRandomQuote', '429');
      expect(exhausted).toContain('urn:quotes:problem:allowance-exhausted');
      expect(exhausted).toContain('Retry-After');
    });

    it("shows the server's 401 problem when no key has been entered", async () => {
      const response = await reference.tryIt('getRandomQuote');
      expect(response.status).toBe(401);
      expect(JSON.parse(response.body)).toMatchObject({ type: 'urn:quotes:problem:missing-api-key', status: 401 });
    });

    it('runs quotes-random with the key entered once: a 200 with a quote and the allowance headers', async () => {
      await reference.enterApiKey(key);
      const response = await reference.tryIt('getRandomQuote');
      expect(response.status).toBe(200);
      const quote = JSON.parse(response.body) as { text?: unknown; author?: unknown; category?: unknown };
      expect(typeof quote.text).toBe('string');
      expect(typeof quote.author).toBe('string');
      // The first try sends the sample's one filter, which every plan allows.
      expect(quote.category).toBe('Grief & Loss');
      expect(response.headers['x-ratelimit-limit']).toBe('50000');
      expect(response.headers['x-ratelimit-remaining']).toBe('49999');
      expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
      expect(response.headers.ratelimit).toMatch(/^"monthly";r=49999;t=\d+$/);
      expect(response.headers['ratelimit-policy']).toMatch(/^"monthly";q=50000;w=\d+$/);

      await opened.screenshot(fileURLToPath(new URL('../../test-output/docs-quotes-random.png', import.meta.url)));
    });

    it("shows the server's 400 problem, naming the bad parameter, for a filter typed in wrong", async () => {
      const response = await reference.tryIt('getRandomQuote', { era: 'Jurassic' });
      expect(response.status).toBe(400);
      const problem = JSON.parse(response.body) as { type: string; errors: Array<{ parameter: string }> };
      expect(problem.type).toBe('urn:quotes:problem:invalid-request');
      expect(problem.errors.map((error) => error.parameter)).toEqual(['era']);
    });

    it('runs the other operations after a reload with the same key, and quotes-usage counts the calls the page made', async () => {
      await reference.reload();
      const page = await reference.tryIt('listQuotes', { limit: '3' });
      expect(page.status).toBe(200);
      expect((JSON.parse(page.body) as { quotes: unknown[] }).quotes).toHaveLength(3);
      expect((await reference.tryIt('listFilterValues')).status).toBe(200);

      const usage = await reference.tryIt('getUsage');
      expect(usage.status).toBe(200);
      // quotes-random, quotes-filter and quotes-categories answered 200; the 400 and 401 are not counted.
      expect(JSON.parse(usage.body)).toMatchObject({ tier: 'professional', calls_this_month: 3 });
    });

    it('asked no host but this machine for anything', () => {
      expect(opened.offHost).toEqual([]);
    });
  },
);
