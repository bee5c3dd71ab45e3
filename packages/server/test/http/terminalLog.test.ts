import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logFormat, parseConfig } from '@quotes/service-base';
import { createLogger } from '@quotes/service-base';
import { type RunningServer, startServer } from '../../src/startServer.js';
import { testConfig } from '../../testing/testConfig.js';
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
    config: testConfig({ DATABASE_URL: database.url, ...environment }),
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
  // One JSON-logging server for the tests that read its lines from their own `before` on; the
  // pretty one and those with settings of their own start theirs.
  let json: { server: RunningServer; lines: string[] };
  beforeAll(async () => {
    json = await loggingServer(false);
  });
  afterAll(() => json?.server.close());

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
    const { server, lines } = json;
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

  it('writes no key, token or e-mail address that a URL carries, in its query, a filter value or its path', async () => {
    const { server, lines } = json;
    const before = lines.length;
    const encodedKey = [...secret].map((char) => `%${char.charCodeAt(0).toString(16)}`).join('');
    const token = 'Zx9Qw3Er7Ty1Ui5Op8As2Df4Gh6Jk0Lm';
    const urls = [
      `/v1/quotes-random?api_key=${secret}`,
      `/v1/quotes-filter?category=${secret}&limit=3`,
      `/v1/quotes-filter?category=love%20${secret}`,
      `/v1/${secret}/quotes`,
      `/v1/quotes-random?k=${encodedKey}`,
      `/keys/confirm?token=${token}`,
      `/sign-in?next=${token}`,
      '/v1/quotes-random?contact=someone.private%40example.org',
    ];
    for (const url of urls) await fetch(`${server.url}${url}`);
    const logged = await linesAfter(lines, before, urls.length);
    expect(logged).toHaveLength(urls.length);
    const text = logged.join('\n');
    for (const leaked of [secret, secret.slice(3), encodedKey, token, 'someone.private'])
      expect(text).not.toContain(leaked);
    // What is not secret stays readable: the path, the other parameters, the parameter's name.
    expect(JSON.parse(logged[1]!).req.url).toBe('/v1/quotes-filter?category=[redacted]&limit=3');
    expect(JSON.parse(logged[3]!).req.url).toBe('/v1/[redacted]/quotes');
    expect(JSON.parse(logged[5]!).req.url).toBe('/keys/confirm?token=[redacted]');
  });

  it('never writes a request body: a form of more than 20 fields is a 400, logged as one line without it', async () => {
    const { server, lines } = json;
    const before = lines.length;
    const form = new URLSearchParams({ email: 'ada.private@example.org', name: 'Ada Quietname' });
    for (let field = 0; field < 25; field++) form.set(`field${field}`, 'x');
    const answer = await fetch(`${server.url}/keys/requests`, { method: 'POST', body: form });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { errors: unknown }).errors).toEqual([
      { parameter: 'body', message: expect.any(String) },
    ]);
    const malformed = await fetch(`${server.url}/keys/requests`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"email": "ada.private@example.org", "name": "Ada Quietname" oops',
    });
    expect(malformed.status).toBe(400);
    const logged = await linesAfter(lines, before, 2);
    expect(logged.map((line) => JSON.parse(line).msg)).toEqual(['request completed', 'request completed']);
    const text = lines.join('\n');
    for (const leaked of ['ada.private', 'Quietname', 'field24']) expect(text).not.toContain(leaked);
    expect(text).not.toContain('"level":50');
  });

  it('a client that closes its connection mid-body: one info line, no stack, no error', async () => {
    const { server, lines } = json;
    const before = lines.length;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(
          'POST /keys/requests HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"email": "ada',
        );
        setTimeout(() => socket.destroy(), 200);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const [line, ...more] = await linesAfter(lines, before, 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(more).toEqual([]);
    expect(lines.slice(before)).toHaveLength(1);
    expect(JSON.parse(line!)).toMatchObject({
      level: 30,
      msg: 'request closed by the client before its answer',
      req: { method: 'POST', url: '/keys/requests' },
      closed: 'by the client',
    });
    expect(line).not.toContain('stack');
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
