import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import {
  browserSkipReason,
  type Listening,
  listen,
  type OpenedReferencePage,
  openReferencePage,
  type ReferencePage,
} from '@quotes/docs/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocsFront, type RunningDocsFront } from '../../src/docsFront.js';

const key = 'qk_docsFrontBrowserTest';

function problem(res: ServerResponse, status: number, type: string, detail: string): void {
  res.writeHead(status, { 'Content-Type': 'application/problem+json' });
  res.end(JSON.stringify({ type: `urn:quotes:problem:${type}`, title: type, status, detail }));
}

const allowanceHeaders = {
  'RateLimit-Policy': '"monthly";q=1000;w=2592000',
  RateLimit: '"monthly";r=999;t=691200',
  'X-RateLimit-Limit': '1000',
  'X-RateLimit-Remaining': '999',
  'X-RateLimit-Reset': '1796083200',
};

/**
 * Stands in for Prism behind the front: just enough of quotes-random and quotes-usage to tell,
 * from the page, that the key, the filters, the status, the body and the allowance headers all
 * made the trip. It records the key of every call.
 */
function startFakeApi(keysSeen: Array<string | undefined>): Promise<Listening> {
  return listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const sent = req.headers['x-api-key'];
    keysSeen.push(Array.isArray(sent) ? sent.join() : sent);
    if (url.pathname !== '/v1/quotes-random' && url.pathname !== '/v1/quotes-usage')
      return problem(res, 404, 'not-found', url.pathname);
    if (sent !== key) return problem(res, 401, 'missing-api-key', 'Send your key.');
    if ([...url.searchParams.keys()].length > 1)
      return problem(res, 403, 'plan-limit', 'The trial plan allows 1 filter per call.');
    if (url.pathname === '/v1/quotes-usage') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ tier: 'trial', calls_this_month: 1, monthly_allowance: 1000 }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json', ...allowanceHeaders });
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

describe.skipIf(browserSkipReason !== undefined)('"try it" through createDocsFront, in Chromium', () => {
  let api: Listening;
  let front: RunningDocsFront;
  let opened: OpenedReferencePage;
  let reference: ReferencePage;
  const keysSeen: Array<string | undefined> = [];

  beforeAll(async () => {
    api = await startFakeApi(keysSeen);
    front = await createDocsFront({ upstream: api.url, port: 0, examples: false });
    opened = await openReferencePage(`${front.url}/docs`);
    ({ reference } = opened);
  });

  afterAll(async () => {
    await opened?.close();
    await front?.close();
    await api?.close();
  });

  it('calls the origin that served the page and shows the error body without a key', async () => {
    expect(await reference.selectedServer()).toBe(front.url);
    const response = await reference.tryIt('getRandomQuote');
    expect(response.status).toBe(401);
    expect(response.body).toContain('urn:quotes:problem:missing-api-key');
    // The front refused it, as the server does, before the upstream saw it.
    expect(keysSeen).toEqual([]);
  });

  it('sends the key entered once with every operation, and shows the status and the allowance headers', async () => {
    await reference.enterApiKey(key);
    const response = await reference.tryIt('getRandomQuote');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ text: 'The river keeps arriving.', author: 'Ilse Marrowby' });
    expect(response.headers).toMatchObject({
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '999',
      'x-ratelimit-reset': '1796083200',
      'ratelimit-policy': '"monthly";q=1000;w=2592000',
      ratelimit: '"monthly";r=999;t=691200',
    });
    const usage = await reference.tryIt('getUsage');
    expect(usage.status).toBe(200);
    expect(JSON.parse(usage.body)).toMatchObject({ tier: 'trial' });
    expect(keysSeen).toEqual([key, key]);
  });

  it('sends the filters typed in, and shows a plan error as it came', async () => {
    const response = await reference.tryIt('getRandomQuote', { category: 'grief', mood: 'dark' });
    expect(response.status).toBe(403);
    expect(response.body).toContain('urn:quotes:problem:plan-limit');
  });

  it('keeps the key across a reload, for both operations', async () => {
    await reference.reload();
    const before = keysSeen.length;
    expect((await reference.tryIt('getUsage')).status).toBe(200);
    const response = await reference.tryIt('getRandomQuote');
    expect(response.status).toBe(200);
    expect(response.headers['x-ratelimit-remaining']).toBe('999');
    expect(keysSeen.slice(before)).toEqual([key, key]);
    await opened.screenshot(fileURLToPath(new URL('../../test-output/docs-front-try-it.png', import.meta.url)));
  });

  it('asked no host but this machine for anything', () => {
    expect(opened.offHost).toEqual([]);
  });
});
