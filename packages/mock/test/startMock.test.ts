import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../src/index.js';
import { freePort, groupAlive } from './helpers.js';
import { responseExample } from '@quotes/contract';

const KEY = { 'X-API-Key': 'qk_any_value_works' };

describe('startMock', () => {
  let mock: RunningMock;

  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it('serves the contract at the real /v1 paths on 127.0.0.1 and a free port', () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.url).not.toMatch(/:0$/);
  });

  it.each([['/v1/quotes-random'], ['/v1/quotes-filter'], ['/v1/quotes-categories'], ['/v1/quotes-usage']])(
    'answers %s with a key with the contract example',
    async (path) => {
      const response = await fetch(`${mock.url}${path}`, { headers: KEY });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(responseExample(path, '200'));
    },
  );

  it('answers a key request without a key, as JSON and as a form, and refuses an incomplete one', async () => {
    const request = {
      email: 'ann@example.com',
      name: 'Ann Lee',
      application: 'Quote widget',
      plan: 'trial',
      use: 'A quote of the day',
      accept_terms: 'true',
    };
    const json = await fetch(`${mock.url}/keys/requests`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...request, accept_terms: true }),
    });
    expect(json.status).toBe(202);
    expect(await json.json()).toEqual(responseExample('/keys/requests', '202', 'post'));
    const form = await fetch(`${mock.url}/keys/requests`, { method: 'POST', body: new URLSearchParams(request) });
    expect(form.status).toBe(202);
    await form.body?.cancel();
    const incomplete = await fetch(`${mock.url}/keys/requests`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'ann@example.com' }),
    });
    expect(incomplete.status).toBe(400);
    await incomplete.body?.cancel();
  });

  it('accepts the key as a Bearer token too', async () => {
    const response = await fetch(`${mock.url}/v1/quotes-random`, { headers: { Authorization: 'Bearer qk_x' } });
    expect(response.status).toBe(200);
  });

  it('sends the allowance headers documented for counted calls', async () => {
    const response = await fetch(`${mock.url}/v1/quotes-random`, { headers: KEY });
    await response.body?.cancel();
    expect(response.headers.get('x-ratelimit-limit')).toBe('10000');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('5787');
    expect(response.headers.get('x-ratelimit-reset')).toBe('1796083200');
    expect(response.headers.get('ratelimit-policy')).toBe('"monthly";q=10000;w=2592000');
  });

  it('answers 401 with the missing-api-key problem without a key', async () => {
    const response = await fetch(`${mock.url}/v1/quotes-random`);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ type: 'urn:quotes:problem:missing-api-key', status: 401 });
  });

  it('answers Prefer: code=429 with the documented problem and Retry-After', async () => {
    const response = await fetch(`${mock.url}/v1/quotes-random`, { headers: { ...KEY, Prefer: 'code=429' } });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('691200');
    expect(await response.json()).toEqual(responseExample('/v1/quotes-random', '429'));
  });

  it('answers Prefer: code=403 with the first documented example, and a named one on request', async () => {
    const first = await fetch(`${mock.url}/v1/quotes-usage`, { headers: { ...KEY, Prefer: 'code=403' } });
    expect(first.status).toBe(403);
    expect(await first.json()).toMatchObject({ type: 'urn:quotes:problem:plan-limit' });

    const named = await fetch(`${mock.url}/v1/quotes-usage`, {
      headers: { ...KEY, Prefer: 'code=403, example=expired' },
    });
    expect(named.status).toBe(403);
    expect(await named.json()).toMatchObject({ type: 'urn:quotes:problem:expired-api-key' });
  });

  it('answers Prefer: code=404 on quotes-random with the no-match problem', async () => {
    const response = await fetch(`${mock.url}/v1/quotes-random`, { headers: { ...KEY, Prefer: 'code=404' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual(responseExample('/v1/quotes-random', '404'));
  });

  it('validates query parameters against the contract', async () => {
    const response = await fetch(`${mock.url}/v1/quotes-filter?limit=0`, { headers: KEY });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'urn:quotes:problem:invalid-request' });
  });
});

describe('startMock lifecycle', () => {
  it('listens on the port it is given and leaves no process behind after stop()', async () => {
    const port = await freePort();
    const mock = await startMock({ port });
    expect(mock.url).toBe(`http://127.0.0.1:${port}`);
    expect(groupAlive(mock.pid)).toBe(true);

    await mock.stop();
    await mock.stop(); // a second stop must not throw or hang

    expect(groupAlive(mock.pid)).toBe(false);
    await expect(fetch(`${mock.url}/v1/quotes-usage`)).rejects.toThrow();
  });

  it('rejects, instead of hanging, when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      await expect(startMock({ port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
