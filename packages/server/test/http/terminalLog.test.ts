import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logFormat, parseConfig } from '@quotes/service-base';
import { createLogger } from '@quotes/service-base';
import { type RunningServer, startServer } from '../../src/startServer.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

/** A server logging into `lines`, pretty (as on a terminal) or JSON. */
async function loggingServer(
  pretty: boolean,
  environment: Record<string, string> = {},
): Promise<{ server: RunningServer; lines: string[] }> {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger({ level: 'info', pretty, destination });
  const server = await startServer({
    config: parseConfig({ DATABASE_URL: database.url, PORT: '0', ...environment }),
    logger,
  });
  return { server, lines };
}

/** The calls' lines: each is written when its response finishes, so wait for them (with a deadline). */
async function linesAfter(lines: string[], from: number, count: number): Promise<string[]> {
  const deadline = Date.now() + 5000;
  while (lines.length < from + count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return lines.slice(from);
}

const secret = 'qk_notARealKeyButSecret0000';

describe('the request log', () => {
  it('on a terminal: one short line per call, and never the key', async () => {
    const { server, lines } = await loggingServer(true);
    try {
      const before = lines.length;
      await fetch(`${server.url}/v1/quotes-random`, { headers: { 'X-API-Key': secret } });
      await fetch(`${server.url}/healthz`, { headers: { Authorization: `Bearer ${secret}` } });
      const calls = await linesAfter(lines, before, 2);
      expect(calls).toEqual([
        expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: GET \/v1\/quotes-random 401 [\d.]+ ms$/),
        expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: GET \/healthz 200 [\d.]+ ms$/),
      ]);
      expect(lines.join('\n')).not.toContain(secret);
    } finally {
      await server.close();
    }
  });

  it('in production logs: the whole call as one JSON object, and never the key', async () => {
    const { server, lines } = await loggingServer(false);
    try {
      const before = lines.length;
      await fetch(`${server.url}/v1/quotes-random`, { headers: { 'X-API-Key': secret, 'User-Agent': 'log-test' } });
      const [line] = await linesAfter(lines, before, 1);
      expect(JSON.parse(line!)).toMatchObject({
        msg: 'request completed',
        reqId: expect.any(String),
        req: { method: 'GET', url: '/v1/quotes-random', userAgent: 'log-test' },
        res: { statusCode: 401 },
        responseTime: expect.any(Number),
      });
      expect(lines.join('\n')).not.toContain(secret);
    } finally {
      await server.close();
    }
  });

  it("writes the client's address from X-Forwarded-For only when the socket is a proxy TRUST_PROXY names", async () => {
    const forwarded = { 'X-Forwarded-For': '203.0.113.9' };
    const addresses = async (environment: Record<string, string>) => {
      const { server, lines } = await loggingServer(false, environment);
      try {
        const before = lines.length;
        await fetch(`${server.url}/healthz`, { headers: forwarded });
        const [line] = await linesAfter(lines, before, 1);
        const { remoteAddress, proxyAddress } = JSON.parse(line!).req;
        return { remoteAddress, proxyAddress };
      } finally {
        await server.close();
      }
    };
    expect(await addresses({ TRUST_PROXY: '127.0.0.1' })).toEqual({
      remoteAddress: '203.0.113.9',
      proxyAddress: '127.0.0.1',
    });
    // Anyone can write the header: without TRUST_PROXY, or from another address, it is not believed.
    expect(await addresses({})).toEqual({ remoteAddress: '127.0.0.1' });
    expect(await addresses({ TRUST_PROXY: '10.0.0.0/8' })).toEqual({ remoteAddress: '127.0.0.1' });
  });

  it('is pretty only on a terminal outside production, unless LOG_FORMAT says', () => {
    expect(logFormat(parseConfig({}), true)).toBe('pretty');
    expect(logFormat(parseConfig({}), false)).toBe('json');
    expect(logFormat(parseConfig({ NODE_ENV: 'production' }), true)).toBe('json');
    expect(logFormat(parseConfig({ LOG_FORMAT: 'json' }), true)).toBe('json');
    expect(logFormat(parseConfig({ LOG_FORMAT: 'pretty' }), false)).toBe('pretty');
    expect(() => parseConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });
});
