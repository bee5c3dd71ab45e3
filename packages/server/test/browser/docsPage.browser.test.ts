import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { browserSkipReason, launchChromium, ReferencePage } from '@quotes/docs/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/index.js';
import { loadFixtureCorpus } from '../support/fixtureCorpus.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));

/** The real server on a fresh database with the fixture corpus, and a key as `npm start` makes one. */
async function startServerWithKey(): Promise<{ database: TestDatabase; server: RunningServer; key: string }> {
  const database = await createTestDatabase();
  await loadFixtureCorpus(database);
  const server = await startServer({ database, port: 0, shutdownGraceMs: 2000 });
  const issued = await server.operator.createKey({ client: 'Docs page browser test', plan: 'professional' });
  return { database, server, key: issued.key };
}

describe('the API reference routes on the real server', () => {
  let database: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    ({ database, server } = await startServerWithKey());
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('serves /docs, /openapi.yaml and /openapi.json without a key, and redirects / to /docs', async () => {
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('/docs/assets/swagger-ui-bundle.js');
    expect((await fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
    expect((await fetch(`${server.url}/openapi.yaml`)).headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(((await (await fetch(`${server.url}/openapi.json`)).json()) as { openapi: string }).openapi).toBe('3.0.3');
    const root = await fetch(`${server.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/docs');
  });

  it('still asks for a key on the API itself', async () => {
    expect((await fetch(`${server.url}/v1/quotes-random`)).status).toBe(401);
  });
});

describe.skipIf(browserSkipReason !== undefined)('the API reference page in Chromium, against the real server', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let key: string;
  let browser: Browser;
  let reference: ReferencePage;
  /** Requests to any host but this machine, refused before they leave: the page must work offline. */
  const offHost: string[] = [];

  beforeAll(async () => {
    ({ database, server, key } = await startServerWithKey());
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 1800 } });
    await context.route('**/*', (route) => {
      const { hostname } = new URL(route.request().url());
      if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue();
      offHost.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    reference = new ReferencePage(await context.newPage());
    await reference.open(`${server.url}/`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await database?.drop();
  });

  it('lands on /docs and shows the four operations, calling this server by default', async () => {
    expect(new URL(reference.page.url()).pathname).toBe('/docs');
    expect(await reference.operationPaths()).toEqual([
      '/v1/quotes-random',
      '/v1/quotes-filter',
      '/v1/quotes-categories',
      '/v1/quotes-usage',
    ]);
    expect((await reference.servers())[0]).toContain(server.url);
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
    expect(await reference.documentedResponse('getRandomQuote', '429')).toContain(
      'urn:quotes:problem:allowance-exhausted',
    );
    expect(await reference.documentedResponse('getRandomQuote', '429')).toContain('Retry-After');
  });

  it("shows the server's 401 problem when no key has been entered", async () => {
    const response = await reference.tryItOut('getRandomQuote');
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ type: 'urn:quotes:problem:missing-api-key', status: 401 });
  });

  it('runs quotes-random with the key entered under Authorize: a 200 with a quote and the allowance headers', async () => {
    await reference.authorizeWithApiKey(key);
    const response = await reference.tryItOut('getRandomQuote');
    expect(response.status).toBe(200);
    const quote = JSON.parse(response.body) as { text?: unknown; author?: unknown };
    expect(typeof quote.text).toBe('string');
    expect(typeof quote.author).toBe('string');
    expect(response.headers['x-ratelimit-limit']).toBe('50000');
    expect(response.headers['x-ratelimit-remaining']).toBe('49999');
    expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    expect(response.headers.ratelimit).toMatch(/^"monthly";r=49999;t=\d+$/);
    expect(response.headers['ratelimit-policy']).toMatch(/^"monthly";q=50000;w=\d+$/);

    mkdirSync(outputDir, { recursive: true });
    await reference.scrollTo('getRandomQuote');
    await reference.page.screenshot({ path: `${outputDir}docs-quotes-random.png` });
  });

  it("shows the server's 400 problem, naming the bad parameter, for a filter typed in wrong", async () => {
    const response = await reference.tryItOut('getRandomQuote', { era: 'Jurassic' });
    expect(response.status).toBe(400);
    const problem = JSON.parse(response.body) as { type: string; errors: Array<{ parameter: string }> };
    expect(problem.type).toBe('urn:quotes:problem:invalid-request');
    expect(problem.errors.map((error) => error.parameter)).toEqual(['era']);
  });

  it('runs the other three operations, and quotes-usage counts the calls the page made', async () => {
    const page = await reference.tryItOut('listQuotes', { category: 'grief', limit: '3' });
    expect(page.status).toBe(200);
    expect((JSON.parse(page.body) as { quotes: unknown[] }).quotes).toHaveLength(3);
    expect((await reference.tryItOut('listFilterValues')).status).toBe(200);

    const usage = await reference.tryItOut('getUsage');
    expect(usage.status).toBe(200);
    // quotes-random, quotes-filter and quotes-categories answered 200; the 400 and 401 are not counted.
    expect(JSON.parse(usage.body)).toMatchObject({ tier: 'professional', calls_this_month: 3 });
  });

  it('asked no host but this machine for anything', () => {
    expect(offHost).toEqual([]);
  });
});
