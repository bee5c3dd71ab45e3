import { afterEach, describe, expect, it } from 'vitest';
import { createQuotesClient, parseRateLimit, parseRetryAfter, QuotesProblemError } from '../src/index.js';
import { startServer, type TestServer } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('QuotesProblemError from responses that are not problem details', () => {
  it('a gateway HTML page gives about:blank with the HTTP status and the text as detail', async () => {
    server = await startServer((_url, _request, response) => {
      response.writeHead(502, { 'Content-Type': 'text/html' });
      response.end('<h1>Bad gateway</h1>');
    });
    const client = createQuotesClient({ baseUrl: server.url, apiKey: 'qk_x' });
    const error = await client.getUsage().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(QuotesProblemError);
    expect(error).toMatchObject({
      status: 502,
      type: 'about:blank',
      title: 'Bad Gateway',
      detail: '<h1>Bad gateway</h1>',
    });
  });

  it('the HTTP status wins over a status field in the body', async () => {
    server = await startServer((_url, _request, response) => {
      response.writeHead(503, { 'Content-Type': 'application/problem+json' });
      response.end(
        JSON.stringify({ type: 'urn:quotes:problem:service-unavailable', title: 'Down', status: 200, detail: 'x' }),
      );
    });
    const client = createQuotesClient({ baseUrl: server.url, apiKey: 'qk_x' });
    const error = (await client.listFilterValues().catch((thrown: unknown) => thrown)) as QuotesProblemError;
    expect(error.status).toBe(503);
    expect(error.type).toBe('urn:quotes:problem:service-unavailable');
  });
});

describe('header parsing', () => {
  it('reads X-RateLimit-*; a plan without a limit sends only the reset', () => {
    expect(parseRateLimit(new Headers({ 'X-RateLimit-Reset': '1796083200' }))).toEqual({
      resetsAt: new Date('2026-12-01T00:00:00Z'),
    });
    expect(parseRateLimit(new Headers())).toBeUndefined();
  });

  it('ignores values that are not plain non-negative integers', () => {
    expect(parseRateLimit(new Headers({ 'X-RateLimit-Limit': '1e3', 'X-RateLimit-Remaining': '-1' }))).toBeUndefined();
    expect(parseRateLimit(new Headers({ 'X-RateLimit-Limit': '', 'X-RateLimit-Remaining': ' 7 ' }))).toEqual({
      remaining: 7,
    });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-30T23:59:00Z');
    expect(parseRetryAfter(new Headers({ 'Retry-After': '691200' }), now)).toBe(691200);
    expect(parseRetryAfter(new Headers({ 'Retry-After': 'Tue, 01 Dec 2026 00:00:00 GMT' }), now)).toBe(60);
    expect(parseRetryAfter(new Headers({ 'Retry-After': 'Sun, 01 Nov 2026 00:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(new Headers({ 'Retry-After': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
  });
});
