import { mkdirSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchChromium, ReferencePage } from '@quotes/docs/testing';
import { createDocsFront, type RunningDocsFront } from '../../src/docsFront.js';
import { type Listening, listen } from '../support/listen.js';

const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));
const key = 'qk_docsFrontBrowserTest';

function problem(res: ServerResponse, status: number, type: string, detail: string): void {
  res.writeHead(status, { 'Content-Type': 'application/problem+json' });
  res.end(JSON.stringify({ type: `urn:quotes:problem:${type}`, title: type, status, detail }));
}

/**
 * Stands in for Prism behind the front: just enough of quotes-random to tell, from the page,
 * that the key, the filters, the status, the body and the allowance headers all made the trip.
 */
async function startFakeApi(): Promise<Listening> {
  return listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    if (url.pathname !== '/v1/quotes-random') return problem(res, 404, 'not-found', url.pathname);
    if (req.headers['x-api-key'] !== key) return problem(res, 401, 'missing-api-key', 'Send your key.');
    if ([...url.searchParams.keys()].length > 1)
      return problem(res, 403, 'plan-limit', 'The trial plan allows 1 filter per call.');
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'RateLimit-Policy': '"monthly";q=1000;w=2592000',
      RateLimit: '"monthly";r=999;t=691200',
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '999',
      'X-RateLimit-Reset': '1796083200',
    });
    res.end(
      JSON.stringify({
        id: 'q_1',
        text: 'The river keeps arriving.',
        author: 'Ilse Marrowby',
        category: 'Wisdom & Philosophy',
      }),
    );
  });
}

describe.skipIf(browserSkipReason !== undefined)('"Try it out" through createDocsFront, in Chromium', () => {
  let api: Listening;
  let front: RunningDocsFront;
  let browser: Browser;
  let context: BrowserContext;
  let reference: ReferencePage;

  beforeAll(async () => {
    api = await startFakeApi();
    front = await createDocsFront({ upstream: api.url, port: 0, examples: false });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 1800 } });
    reference = new ReferencePage(await context.newPage());
    await reference.open(`${front.url}/docs`);
  });

  afterAll(async () => {
    await browser?.close();
    await front?.close();
    await api?.close();
  });

  it('calls the origin that served the page and shows the error body without a key', async () => {
    expect((await reference.servers())[0]).toContain(front.url);
    const response = await reference.tryItOut('getRandomQuote');
    expect(response.status).toBe(401);
    expect(response.body).toContain('urn:quotes:problem:missing-api-key');
  });

  it('sends the key entered under Authorize and shows the quote and the allowance headers', async () => {
    await reference.authorizeWithApiKey(key);
    const response = await reference.tryItOut('getRandomQuote');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ text: 'The river keeps arriving.', author: 'Ilse Marrowby' });
    expect(response.headers).toMatchObject({
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '999',
      'ratelimit-policy': '"monthly";q=1000;w=2592000',
      ratelimit: '"monthly";r=999;t=691200',
    });
    mkdirSync(outputDir, { recursive: true });
    await reference.scrollTo('getRandomQuote');
    await reference.page.screenshot({ path: `${outputDir}docs-front-try-it-out.png` });
  });

  it('sends the filters typed in, and shows a plan error as it came', async () => {
    const response = await reference.tryItOut('getRandomQuote', { category: 'grief', mood: 'dark' });
    expect(response.status).toBe(403);
    expect(response.body).toContain('urn:quotes:problem:plan-limit');
  });

  it('keeps the key across a reload', async () => {
    await reference.open(`${front.url}/docs`);
    const response = await reference.tryItOut('getRandomQuote');
    expect(response.status).toBe(200);
  });
});
