import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyRateWindowMs } from '../../src/http/slowClients.js';
import { displayPrefix, generateApiKey, randomBase62 } from '@quotes/accounts';
import { createOperatorApi } from '@quotes/accounts';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { requestBody, unpacedPublicPages } from '../../testing/keyRequestClient.js';
import { type ServiceProcess, startServiceProcess } from '../../testing/serviceProcess.js';

/**
 * Every hostile input we could think of, sent to the server as `npm start` runs it, then all it
 * wrote (stdout, where the log goes, and stderr) searched for the keys, tokens, e-mail addresses
 * and names sent. Run once with JSON lines and once with the terminal's pretty lines.
 */

let database: TestDatabase;
let validKey: string;
let smtp: SMTPServer;
let smtpUrl: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
  // Keys exist: the server prints no demo key, so nothing key-shaped belongs in its output at all.
  validKey = (await createOperatorApi(database).createKey({ client: 'Log scan', plan: 'enterprise', unlimited: true }))
    .key;
  // A real SMTP server that refuses some recipients, quoting the address, as real ones do.
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, done) {
      if (address.address.startsWith('refused'))
        done(Object.assign(new Error(`<${address.address}>: no such user here`), { responseCode: 550 }));
      else done();
    },
    onData(stream, _session, done) {
      stream.resume();
      stream.on('end', () => done());
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await database?.drop();
});

interface Sent {
  /** Keys and tokens: none of their secret part may appear. */
  secrets: string[];
  /** E-mail addresses and names: none may appear. */
  personal: string[];
  /** Requests sent whole (each must leave one log line). */
  requests: number;
}

function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${base}${path}`,
      { method, headers: { Connection: 'close', ...headers }, agent: false, timeout: 10_000 },
      (incoming) => {
        incoming.resume();
        incoming.on('end', () => resolve(incoming.statusCode ?? 0));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer to ${method} ${path}`)));
    // A server that answers before reading a whole body (a 413) may close while it is still sent.
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve(0) : reject(error),
    );
    outgoing.end(body);
  });
}

/** Writes `text` on a raw connection and closes it after `closeAfterMs` (or when the server does). */
function raw(port: number, text: string, closeAfterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const timer = setTimeout(() => socket.destroy(), closeAfterMs);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A person who has not been seen anywhere else: an address and a name unlikely in any other text. */
function person(label: string, refused = false): { email: string; name: string } {
  const tag = randomBase62(6).toLowerCase();
  return { email: `${refused ? 'refused' : 'person'}.${label}.${tag}@example.org`, name: `Quillon${tag} Vandermeer` };
}

async function sendHostileInputs(service: ServiceProcess): Promise<Sent> {
  const base = service.url;
  const port = Number(new URL(base).port);
  const unknownKey = generateApiKey();
  const bareSecret = `${randomBase62(11)}7Q${randomBase62(11)}`;
  const confirmationToken = randomBase62(32);
  const signInToken = randomBytes(32).toString('base64url');
  const bearerToken = `eyJhbGciOiJIUzI1NiJ9.${randomBytes(24).toString('base64url')}.${randomBytes(16).toString('base64url')}`;
  const basicCredentials = Buffer.from(`operator:${randomBase62(16)}`).toString('base64');
  const sent: Sent = {
    secrets: [validKey, unknownKey, bareSecret, confirmationToken, signInToken, bearerToken, basicCredentials],
    personal: [],
    requests: 0,
  };
  const whole = async (method: string, path: string, headers?: Record<string, string>, body?: string | Buffer) => {
    sent.requests++;
    return send(base, method, path, headers, body);
  };
  const encodeEvery = (text: string) => [...text].map((char) => `%${char.charCodeAt(0).toString(16)}`).join('');

  // Keys and tokens in URLs: query, filter values, the path, encoded once, twice, character by character.
  for (const path of [
    `/v1/quotes-random?api_key=${validKey}`,
    `/v1/quotes-random?key=${unknownKey}&apikey=${validKey}`,
    `/v1/quotes-filter?category=${validKey}&limit=2`,
    `/v1/quotes-filter?category=love%20${validKey}`,
    `/v1/quotes-filter?author=${bareSecret}`,
    `/v1/${validKey}`,
    `/v1/quotes/${unknownKey}/random`,
    `/v1/quotes-random?k=${encodeEvery(validKey)}`,
    `/v1/quotes-random?q=${encodeURIComponent(encodeURIComponent(validKey))}`,
    `/v1/quotes-random?token=${confirmationToken}`,
    `/v1/quotes-random?auth=Bearer%20${bearerToken}`,
    `/keys/confirm?token=${confirmationToken}`,
    `/keys/confirm?token=${validKey}`,
    `/sign-in?token=${signInToken}`,
    `/v1/quotes-random?%E0%A4%A&x=${validKey}`,
    `/v1/quotes-random?pad=${'a'.repeat(3000)}&x=${validKey}`,
  ])
    await whole('GET', path, { 'X-API-Key': validKey });

  // Keys in headers: valid, unknown, conflicting, as Bearer and Basic, and where no key belongs.
  const visitor = person('headers');
  sent.personal.push(visitor.email, visitor.name);
  const headerSets: Array<Record<string, string>> = [
    { 'X-API-Key': validKey },
    { Authorization: `Bearer ${validKey}` },
    { 'X-API-Key': unknownKey },
    { 'X-API-Key': `${validKey}x` },
    { 'X-API-Key': validKey, Authorization: `Bearer ${unknownKey}` },
    { Authorization: `Bearer ${bearerToken}` },
    { Authorization: `Basic ${basicCredentials}` },
    { Authorization: validKey },
    { 'X-Request-Id': validKey, 'X-API-Key': validKey },
    { 'X-Request-Id': bareSecret },
    { 'User-Agent': `curl/8 ${validKey} ${visitor.email} (${visitor.name})`, 'X-API-Key': validKey },
    { Referer: `https://example.org/?key=${validKey}`, Origin: `https://${unknownKey}.example.org` },
    { Cookie: `session=${signInToken}`, 'X-API-Key': validKey },
  ];
  for (const headers of headerSets) await whole('GET', '/v1/quotes-random', headers);

  // X-Forwarded-For as anyone can write it (the server trusts 127.0.0.1 as its proxy here).
  for (const forwarded of [
    validKey,
    visitor.email,
    `not-an-address, ${visitor.name}`,
    `203.0.113.9, ${unknownKey}`,
    `${'garbage,'.repeat(900)}198.51.100.7`,
  ]) {
    await whole('GET', '/v1/quotes-random', { 'X-API-Key': validKey, 'X-Forwarded-For': forwarded });
    await whole('GET', '/healthz', { 'X-Forwarded-For': forwarded });
  }

  // Personal data in the API's URLs and bodies (the API reads no body).
  const apiVisitor = person('api');
  sent.personal.push(apiVisitor.email, apiVisitor.name);
  await whole('GET', `/v1/${apiVisitor.email}`);
  await whole('GET', `/v1/quotes-filter?author=${encodeURIComponent(apiVisitor.email)}`, { 'X-API-Key': validKey });
  await whole(
    'POST',
    '/v1/quotes-random',
    { 'X-API-Key': validKey, 'Content-Type': 'application/json' },
    JSON.stringify(apiVisitor),
  );

  // The key-request form: accepted, refused by the mail server, and every way a body can be wrong.
  const json = { 'Content-Type': 'application/json' };
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
  const bodyOf = (who: Record<string, string>) => requestBody(who);
  const kinds: Array<[string, (who: { email: string; name: string }) => Promise<unknown>]> = [
    ['accepted', (who) => whole('POST', '/keys/requests', json, bodyOf(who))],
    [
      'accepted-form',
      (who) => whole('POST', '/keys/requests', form, new URLSearchParams({ ...who, plan: 'trial' }).toString()),
    ],
    ['oversized', (who) => whole('POST', '/keys/requests', json, bodyOf({ ...who, use: 'x'.repeat(20_000) }))],
    [
      'many-fields',
      (who) => {
        const fields = new URLSearchParams(who);
        for (let field = 0; field < 25; field++) fields.set(`field${field}`, who.name);
        return whole('POST', '/keys/requests', form, fields.toString());
      },
    ],
    [
      'malformed',
      (who) => whole('POST', '/keys/requests', json, `{"email": "${who.email}", "name": "${who.name}" oops`),
    ],
    ['not-json-at-all', (who) => whole('POST', '/keys/requests', json, `${who.name} <${who.email}>`)],
    [
      'charset',
      (who) => whole('POST', '/keys/requests', { 'Content-Type': 'application/json; charset=koi8-r' }, bodyOf(who)),
    ],
    [
      'bad-gzip',
      (who) =>
        whole(
          'POST',
          '/keys/requests',
          { ...json, 'Content-Encoding': 'gzip' },
          Buffer.from(`not gzip ${who.email} ${who.name}`),
        ),
    ],
    ['gzip', (who) => whole('POST', '/keys/requests', { ...json, 'Content-Encoding': 'gzip' }, gzipSync(bodyOf(who)))],
    [
      'unknown-encoding',
      (who) => whole('POST', '/keys/requests', { ...json, 'Content-Encoding': 'br, zz' }, bodyOf(who)),
    ],
    ['text-plain', (who) => whole('POST', '/keys/requests', { 'Content-Type': 'text/plain' }, bodyOf(who))],
    [
      'bad-email',
      (who) => whole('POST', '/keys/requests', json, bodyOf({ ...who, email: `${who.name} at ${who.email}` })),
    ],
    [
      'cross-site',
      (who) => whole('POST', '/keys/requests', { ...json, Origin: 'https://elsewhere.example' }, bodyOf(who)),
    ],
    [
      'forwarded',
      (who) =>
        whole('POST', '/keys/requests', { ...json, 'X-Forwarded-For': `${who.email}, ${who.name}` }, bodyOf(who)),
    ],
    ['confirm-body', (who) => whole('POST', '/keys/confirm', form, `token=${confirmationToken}&email=${who.email}`)],
    // The client goes away half-way through its body.
    [
      'aborted',
      (who) =>
        raw(
          port,
          `POST /keys/requests HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 900\r\n\r\n${bodyOf(who).slice(0, 120)}`,
          200,
        ),
    ],
    // A body that stops: cut by the server after its window.
    [
      'stalled',
      (who) =>
        raw(
          port,
          `POST /keys/requests HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 900\r\n\r\n${bodyOf(who).slice(0, 120)}`,
          bodyRateWindowMs + 3000,
        ),
    ],
    // Headers that never end (with an address in them): Node's headers timeout.
    ['endless-headers', (who) => raw(port, `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Who: ${who.email}`, 500)],
    // Not HTTP at all.
    ['garbage', (who) => raw(port, `HELLO ${who.email} ${validKey}\r\n\r\n`, 1000)],
  ];
  const refusedByMail = person('mail', true);
  sent.personal.push(refusedByMail.email, refusedByMail.name);
  const running: Promise<unknown>[] = [whole('POST', '/keys/requests', json, bodyOf(refusedByMail))];
  for (const [label, run] of kinds) {
    const who = person(label);
    sent.personal.push(who.email, who.name);
    // The slow ones run beside the rest.
    if (label === 'stalled') running.push(run(who));
    else await run(who);
  }
  await Promise.all(running);
  return sent;
}

/** The forms a sent text could take in a log: as sent, percent-encoded, in a form body, JSON-escaped. */
function formsOf(text: string): string[] {
  return [
    text,
    encodeURIComponent(text),
    new URLSearchParams({ x: text }).toString().slice(2),
    JSON.stringify(text).slice(1, -1),
  ];
}

/** Every 12-character piece of a secret (past a key's display prefix, which names it and is not secret). */
function piecesOf(secret: string): string[] {
  const hidden = secret.startsWith('qk_') ? secret.slice(displayPrefix(secret).length) : secret;
  return Array.from({ length: Math.max(1, hidden.length - 11) }, (_, at) => hidden.slice(at, at + 12));
}

interface Scan {
  service: ServiceProcess;
  sent: Sent;
  output: string;
}

/** A server as `npm start` runs it, logging in `format`, given every hostile input, then stopped: what it wrote. */
async function scan(format: string): Promise<Scan> {
  const service = await startServiceProcess({
    DATABASE_URL: database.url,
    LOG_LEVEL: 'trace',
    LOG_FORMAT: format,
    SMTP_URL: smtpUrl,
    TRUST_PROXY: '127.0.0.1',
    KEY_REQUESTS_PER_ADDRESS_HOUR: '1000',
    KEY_REQUESTS_PER_EMAIL_HOUR: '1000',
    OPERATOR_EMAIL: 'operator.private.inbox@example.org',
    ...unpacedPublicPages,
  });
  try {
    const sent = await sendHostileInputs(service);
    // Mail goes out after the answer; the stop writes the last lines.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    service.child.kill('SIGTERM');
    await service.exited;
    return { service, sent, output: `${service.stdout.join('\n')}\n${service.stderr()}` };
  } catch (error) {
    service.kill();
    throw error;
  }
}

// Both formats' servers take their hostile input side by side: most of a run waits (on the
// stalled body's window, on the mail), so the two share the wait.
const scans = new Map<string, Promise<Scan>>();
beforeAll(() => {
  for (const format of ['json', 'pretty']) {
    const scanned = scan(format);
    // Read by the format's own describe; a failure is reported there.
    scanned.catch(() => undefined);
    scans.set(format, scanned);
  }
});

describe.each(['json', 'pretty'])('the log (%s lines) after hostile input', (format) => {
  let service: ServiceProcess;
  let sent: Sent;
  let output: string;

  beforeAll(async () => {
    ({ service, sent, output } = await scans.get(format)!);
  }, 120_000);

  afterAll(() => service?.kill());

  it('wrote a line for every request (the scan below reads real output)', () => {
    const requestLines = service.stdout.filter((line) =>
      format === 'json'
        ? /"msg":"request (completed|closed|cut)/.test(line)
        : /(GET|POST) \/\S* (\d{3}|closed)/.test(line),
    );
    expect(requestLines.length).toBeGreaterThanOrEqual(sent.requests);
    expect(sent.secrets.length).toBe(7);
    expect(sent.personal.length).toBeGreaterThan(40);
  });

  it('holds none of the keys or tokens sent, nor anything key-shaped', () => {
    const found = sent.secrets.flatMap((secret) =>
      piecesOf(secret)
        .flatMap((piece) => formsOf(piece))
        .filter((form) => output.includes(form)),
    );
    expect(found).toEqual([]);
    expect(output.match(/qk(_|%5f)[A-Za-z0-9]{9,}/gi) ?? []).toEqual([]);
  });

  it('holds none of the e-mail addresses or names sent', () => {
    const found = sent.personal.flatMap((text) => [
      ...formsOf(text).filter((form) => output.toLowerCase().includes(form.toLowerCase())),
      // A name's unusual first word alone, an address's part before the @ alone.
      ...[text.split(/[ @]/)[0]!].filter((part) => part.length > 8 && output.includes(part)),
    ]);
    expect(found).toEqual([]);
    expect(output.match(/[A-Za-z0-9._%+-]+(@|%40)[A-Za-z0-9-]+\.[A-Za-z]{2,}/g) ?? []).toEqual([]);
  });

  // Read from the JSON lines, where each field is its own.
  if (format === 'json')
    it('logs a client that went away as an info line without a stack, and bad bodies as 4xx, never 500', () => {
      const lines = service.stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
      const closed = lines.filter((line) => line.closed !== undefined);
      expect(closed.map((line) => line.closed).sort()).toEqual(['body too slow', 'by the client']);
      for (const line of closed) {
        expect(line.level).toBe(30);
        expect(JSON.stringify(line)).not.toContain('stack');
      }
      const keyRequestAnswers = lines
        .filter((line) => (line.req as { url?: string } | undefined)?.url === '/keys/requests' && line.res)
        .map((line) => (line.res as { statusCode: number }).statusCode);
      expect(keyRequestAnswers.length).toBeGreaterThan(10);
      expect(keyRequestAnswers.filter((status) => status >= 500)).toEqual([]);
    });
});
