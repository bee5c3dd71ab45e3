import http, { type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocsFront, type RunningDocsFront } from '../src/docsFront.js';
import { type Listening, listen } from '@quotes/docs/testing';

interface Echo {
  method: string;
  url: string;
  rawHeaders: string[];
  body: string;
}

/** A raw GET through node:http, resolving at the first body chunk, not at the end. */
function firstChunk(url: string): Promise<{ response: IncomingMessage; chunk: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        response.once('data', (chunk: Buffer) => resolve({ response, chunk: chunk.toString('utf8') }));
      })
      .once('error', reject);
  });
}

function readRest(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    response.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    response.once('end', () => resolve(text));
    response.once('error', reject);
  });
}

describe('createDocsFront', () => {
  let upstream: Listening;
  let front: RunningDocsFront;
  const upstreamSaw: string[] = [];
  let releaseStream: () => void = () => {};

  beforeAll(async () => {
    upstream = await listen((req, res) => {
      upstreamSaw.push(`${req.method} ${req.url}`);
      if (req.url === '/stream') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('first;');
        releaseStream = () => res.end('second');
        return;
      }
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      req.on('end', () => {
        const echo: Echo = { method: req.method ?? '', url: req.url ?? '', rawHeaders: req.rawHeaders, body };
        res.writeHead(429, 'Too Many Requests', [
          'Content-Type',
          'application/problem+json',
          'X-RateLimit-Remaining',
          '0',
          'Retry-After',
          '3600',
          'Set-Cookie',
          'a=1',
          'Set-Cookie',
          'b=2',
        ]);
        res.end(JSON.stringify(echo));
      });
    });
    front = await createDocsFront({ upstream: upstream.url, port: 0, serverParity: false });
  });

  afterAll(async () => {
    await front?.close();
    await upstream?.close();
  });

  it('answers the reference itself and forwards none of it', async () => {
    const before = upstreamSaw.length;
    const page = await fetch(`${front.url}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/docs/assets/scalar-standalone.js');
    // The contract names the front as its server, on whatever port it got, not the mock's 4010.
    const contract = (await (await fetch(`${front.url}/openapi.json`)).json()) as { servers: Array<{ url: string }> };
    expect(contract.servers.map(({ url }) => url)).toEqual([front.url]);
    expect(await (await fetch(`${front.url}/openapi.yaml`)).text()).toContain(`- url: "${front.url}"\n`);
    const root = await fetch(`${front.url}/`, { redirect: 'manual' });
    expect(root.headers.get('location')).toBe('/docs');
    expect(upstreamSaw.length).toBe(before);
  });

  it('forwards everything else with method, path, query, headers and body, and returns status and headers as they came', async () => {
    const response = await fetch(`${front.url}/v1/quotes-random?category=grief&mood=dark`, {
      method: 'POST',
      headers: { 'X-API-Key': 'qk_demo', 'Content-Type': 'text/plain' },
      body: 'a body',
    });
    expect(response.status).toBe(429);
    expect(response.statusText).toBe('Too Many Requests');
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(response.headers.get('retry-after')).toBe('3600');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);

    const echo = (await response.json()) as Echo;
    expect(echo.method).toBe('POST');
    expect(echo.url).toBe('/v1/quotes-random?category=grief&mood=dark');
    expect(echo.body).toBe('a body');
    const names = echo.rawHeaders.filter((_, index) => index % 2 === 0).map((name) => name.toLowerCase());
    expect(echo.rawHeaders[names.indexOf('x-api-key') * 2 + 1]).toBe('qk_demo');
    expect(names).toContain('x-forwarded-for');
  });

  it('drops hop-by-hop headers, including those the Connection header names', async () => {
    // fetch() refuses to set Connection, so this one goes through node:http.
    const echo = await new Promise<Echo>((resolve, reject) => {
      http
        .get(
          `${front.url}/echo`,
          { headers: { Connection: 'keep-alive, X-Hop', 'X-Hop': 'secret', 'X-Kept': 'yes' } },
          (response) => {
            readRest(response).then((text) => resolve(JSON.parse(text) as Echo), reject);
          },
        )
        .once('error', reject);
    });
    const names = echo.rawHeaders.filter((_, index) => index % 2 === 0).map((name) => name.toLowerCase());
    expect(names).not.toContain('x-hop');
    expect(names).toContain('x-kept');
  });

  it('streams: the first chunk arrives while the upstream is still answering', async () => {
    const { response, chunk } = await firstChunk(`${front.url}/stream`);
    expect(response.statusCode).toBe(200);
    expect(chunk).toBe('first;');
    releaseStream();
    expect(await readRest(response)).toBe('second');
  });

  it('answers problem details with 503 when the upstream cannot be reached', async () => {
    const closedPort = await listen(() => undefined);
    await closedPort.close();
    const orphan = await createDocsFront({ upstream: closedPort.url, port: 0, serverParity: false });
    try {
      const response = await fetch(`${orphan.url}/v1/quotes-usage`);
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.get('retry-after')).toBe('2');
      expect(await response.json()).toMatchObject({ type: 'urn:quotes:problem:service-unavailable', status: 503 });
      // The reference does not depend on the upstream.
      expect((await fetch(`${orphan.url}/docs`)).status).toBe(200);
    } finally {
      await orphan.close();
    }
  });
});
