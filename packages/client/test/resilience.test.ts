import { afterEach, describe, expect, it } from 'vitest';
import { createQuotesClient, QuotesNetworkError, QuotesProblemError } from '../src/index.js';
import { backoffDelay, retryPolicy } from '../src/retryPolicy.js';
import { sendJson, startServer, type TestServer } from './helpers.js';

// Timeouts and retries against a real HTTP server that answers what each test scripts.
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const usage = {
  client: 'Acme',
  tier: 'starter',
  calls_this_month: 1,
  call_limit: 1000,
  calls_remaining: 999,
  usage_pct: 0,
  resets: 'in 8 days',
  resets_at: '2026-12-01T00:00:00Z',
};
const unavailable = {
  type: 'urn:quotes:problem:service-unavailable',
  title: 'Service unavailable',
  status: 503,
  detail: 'The quote database is unreachable; please retry in a few seconds.',
};

/** Answers the scripted statuses in turn (then 200), recording when each request came. */
async function scripted(statuses: number[], headers: Record<string, string> = {}): Promise<number[]> {
  const arrivals: number[] = [];
  server = await startServer((_url, _request, response) => {
    arrivals.push(Date.now());
    const status = statuses.shift() ?? 200;
    if (status === 200) sendJson(response, 200, usage);
    else if (status === 503) sendJson(response, 503, unavailable, headers);
    else
      sendJson(
        response,
        status,
        { type: 'urn:quotes:problem:allowance-exhausted', title: 'Used up', status, detail: 'x' },
        headers,
      );
  });
  return arrivals;
}

describe('retries (opt-in)', () => {
  it('are off by default: a 503 is surfaced at once', async () => {
    const arrivals = await scripted([503]);
    const client = createQuotesClient({ baseUrl: server!.url, apiKey: 'qk_x' });
    await expect(client.getUsage()).rejects.toMatchObject({ status: 503, code: 'service-unavailable' });
    expect(arrivals).toHaveLength(1);
  });

  it('retry a 503 after its Retry-After, then resolve', async () => {
    const arrivals = await scripted([503, 503], { 'Retry-After': '1' });
    const client = createQuotesClient({ baseUrl: server!.url, apiKey: 'qk_x', retry: true });
    expect(await client.getUsage()).toEqual(usage);
    expect(arrivals).toHaveLength(3);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
    expect(arrivals[2]! - arrivals[1]!).toBeGreaterThanOrEqual(950);
  });

  it('give up after maxRetries and surface the last 503', async () => {
    const arrivals = await scripted([503, 503, 503, 503]);
    const client = createQuotesClient({
      baseUrl: server!.url,
      apiKey: 'qk_x',
      retry: { maxRetries: 2, baseDelayMs: 5 },
    });
    await expect(client.getUsage()).rejects.toMatchObject({ status: 503 });
    expect(arrivals).toHaveLength(3);
  });

  it('do not wait for a Retry-After longer than maxDelayMs: the 503 is surfaced with it', async () => {
    const arrivals = await scripted([503], { 'Retry-After': '120' });
    const client = createQuotesClient({ baseUrl: server!.url, apiKey: 'qk_x', retry: { maxDelayMs: 1000 } });
    const error = (await client.getUsage().catch((thrown: unknown) => thrown)) as QuotesProblemError;
    expect(error.retryAfterSeconds).toBe(120);
    expect(arrivals).toHaveLength(1);
  });

  it('retry a 429 rate-limited after its short Retry-After, then resolve', async () => {
    const arrivals: number[] = [];
    server = await startServer((_url, _request, response) => {
      arrivals.push(Date.now());
      if (arrivals.length > 1) return sendJson(response, 200, usage);
      const problem = { type: 'urn:quotes:problem:rate-limited', title: 'Too many', status: 429, detail: 'x' };
      sendJson(response, 429, problem, { 'Retry-After': '1' });
    });
    const client = createQuotesClient({ baseUrl: server.url, apiKey: 'qk_x', retry: true });
    expect(await client.getUsage()).toEqual(usage);
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
  });

  it('never retry a 429 allowance-exhausted: it is surfaced with the time the allowance comes back', async () => {
    const arrivals = await scripted([429], { 'Retry-After': '691200', 'X-RateLimit-Reset': '1796083200' });
    const client = createQuotesClient({
      baseUrl: server!.url,
      apiKey: 'qk_x',
      retry: { maxRetries: 5, baseDelayMs: 1 },
    });
    const error = (await client.getUsage().catch((thrown: unknown) => thrown)) as QuotesProblemError;
    expect(error).toBeInstanceOf(QuotesProblemError);
    expect(error.code).toBe('allowance-exhausted');
    expect(error.rateLimit?.resetsAt).toEqual(new Date('2026-12-01T00:00:00Z'));
    expect(error.retryAt).toBeInstanceOf(Date);
    expect(arrivals).toHaveLength(1);
  });

  it('retry a refused connection, and report the tries made', async () => {
    server = await startServer(() => undefined);
    const url = server.url;
    await server.close();
    server = undefined;
    const client = createQuotesClient({ baseUrl: url, apiKey: 'qk_x', retry: { maxRetries: 2, baseDelayMs: 5 } });
    const error = await client.getUsage().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(QuotesNetworkError);
    expect(error).toMatchObject({ reason: 'network', attempts: 3 });
  });

  it('name the refusal and the address in the message, from the cause fetch nests', async () => {
    // A port that just had a listener and now has none: the kernel refuses at once.
    const closed = await startServer(() => undefined);
    await closed.close();
    const port = new URL(closed.url).port;
    const client = createQuotesClient({ baseUrl: closed.url, apiKey: 'qk_x' });
    const error = (await client.getUsage().catch((thrown: unknown) => thrown)) as QuotesNetworkError;
    expect(error).toBeInstanceOf(QuotesNetworkError);
    expect((error.cause as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    expect(error.message).toBe(
      `GET ${closed.url}/v1/quotes-usage failed: fetch failed (ECONNREFUSED 127.0.0.1:${port})`,
    );
  });

  it('name a code found on the cause itself, as other fetch implementations put it', async () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const client = createQuotesClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'qk_x',
      fetch: () => Promise.reject(new TypeError('fetch failed', { cause: reset })),
    });
    const error = (await client.getUsage().catch((thrown: unknown) => thrown)) as QuotesNetworkError;
    expect(error.message).toBe('GET http://127.0.0.1:9/v1/quotes-usage failed: fetch failed (ECONNRESET)');
  });

  it('stop waiting when the caller aborts, with the caller’s reason', async () => {
    await scripted([503, 503, 503], { 'Retry-After': '10' });
    const client = createQuotesClient({ baseUrl: server!.url, apiKey: 'qk_x', retry: { maxDelayMs: 20_000 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 200);
    const started = Date.now();
    await expect(client.getUsage({ signal: controller.signal })).rejects.toThrow('caller gave up');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('back off exponentially with jitter, capped', () => {
    const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
    expect([0, 1, 2, 3, 4].map((retry) => backoffDelay(policy, retry, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([0, 1, 2, 3, 4].map((retry) => backoffDelay(policy, retry, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(() => retryPolicy({ maxRetries: -1 })).toThrow(RangeError);
  });
});

describe('timeoutMs', () => {
  it('fails a silent server with a timeout error after the deadline', async () => {
    // Accepts the request and never answers.
    server = await startServer(() => undefined);
    const client = createQuotesClient({ baseUrl: server.url, apiKey: 'qk_x', timeoutMs: 300 });
    const started = Date.now();
    const error = await client.getUsage().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(QuotesNetworkError);
    expect(error).toMatchObject({ reason: 'timeout', attempts: 1 });
    expect((error as Error).message).toContain('no answer within 300 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('covers a body that stops half way', async () => {
    server = await startServer((_url, _request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"client":');
    });
    const client = createQuotesClient({ baseUrl: server.url, apiKey: 'qk_x', timeoutMs: 300 });
    const error = await client.getUsage().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(QuotesNetworkError);
    expect(error).toMatchObject({ reason: 'timeout' });
  });

  it('refuses a negative timeout', () => {
    expect(() => createQuotesClient({ baseUrl: 'http://127.0.0.1:1', timeoutMs: -1 })).toThrow(RangeError);
  });
});
