import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { post, requestBody, startServerMailingTo } from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { capturedLogger } from '../../testing/testServer.js';
import { confirmationTokens, pressConfirm } from './confirmationLinks.js';

// What the door takes and how it refuses the rest, on a real server and PostgreSQL: forms with
// too many fields, text the operator's tools would refuse later, forwarding headers that are not
// addresses. Each test sends from its own 127.x network.
let database: TestDatabase;
let inbox: SmtpInbox;
let server: RunningServer;
/** Behind a proxy on 127.50.0.1 that the server trusts. */
let proxied: RunningServer;
const logged = capturedLogger();

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  server = await startServerMailingTo(database, inbox, { logger: logged.logger });
  proxied = await startServerMailingTo(database, inbox, { keyRequests: { trustProxy: ['127.50.0.1'] } });
});
afterAll(async () => {
  await proxied?.close();
  await server?.close();
  await inbox?.close();
  await database?.drop();
});

const form = 'application/x-www-form-urlencoded';
const problemOf = (text: string) =>
  JSON.parse(text) as { type: string; status: number; errors?: { parameter: string; message: string }[] };
const requestsOf = (email: string) =>
  database.db.selectFrom('key_requests').selectAll().where('email', '=', email).execute();

describe('a form with more fields than a key request has', { timeout: 30_000 }, () => {
  const fields = (count: number) => {
    const body = new URLSearchParams({
      email: 'many@example.com',
      name: 'Many',
      application: 'Many fields',
      use: 'Testing',
      accept_terms: 'true',
    });
    for (let index = body.size; index < count; index++) body.append(`extra${index}`, 'secret-body-value');
    return body.toString();
  };

  it('is a 400 problem naming the body, for scripts and for browsers, never a 500', async () => {
    const script = await post(`${server.url}/keys/requests`, fields(21), {
      contentType: form,
      localAddress: '127.51.0.1',
    });
    expect(script.status).toBe(400);
    expect(problemOf(script.text)).toMatchObject({
      type: 'urn:quotes:problem:invalid-request',
      errors: [{ parameter: 'body', message: 'must have at most 20 fields' }],
    });
    const browser = await post(`${server.url}/keys/requests`, fields(60), {
      contentType: form,
      localAddress: '127.51.0.1',
      headers: { Accept: 'text/html' },
    });
    expect(browser.status).toBe(400);
    expect(browser.headers['content-type']).toMatch(/^text\/html/);
    expect(browser.text).toContain('must have at most 20 fields');
    expect(logged.lines.join('')).not.toContain('secret-body-value');
  });

  it('answers other bodies it cannot read with a 4xx too', async () => {
    const answers = await Promise.all([
      post(`${server.url}/keys/requests`, requestBody({ email: 'cs@example.com' }), {
        contentType: 'application/json; charset=latin1',
        localAddress: '127.51.0.2',
      }),
      post(`${server.url}/keys/requests`, 'email=a', {
        contentType: form,
        localAddress: '127.51.0.2',
        headers: { 'Content-Encoding': 'x-unknown' },
      }),
      post(`${server.url}/keys/requests`, '{"email":', { localAddress: '127.51.0.2' }),
      post(`${server.url}/keys/requests`, requestBody({ email: 'txt@example.com' }), {
        contentType: 'text/plain',
        localAddress: '127.51.0.2',
      }),
    ]);
    for (const answer of answers) {
      expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
      expect(answer.status, answer.text).toBeLessThan(500);
      expect(problemOf(answer.text).errors?.[0]?.parameter).toBe('body');
    }
  });
});

describe('text the operator would refuse later', { timeout: 30_000 }, () => {
  it.for<[string, string]>([
    ['application', 'Quotes \u202Eppa.exe'],
    ['application', 'Quotes\u2028app'],
    ['name', 'Ann\u2066Lee'],
    ['name', 'Ann\u200BLee'],
    ['name', 'Ann\u0085Lee'],
    ['use', 'daily \u2029 quotes'],
    ['use', 'daily \u001b[2J quotes'],
  ])('is refused at the door (%s %j), the field named with the reason in words', async ([field, value]) => {
    const email = `door-${field}-${value.codePointAt(value.search(/[^\x20-\x7e]/))!.toString(16)}@example.com`;
    const answer = await post(`${server.url}/keys/requests`, requestBody({ email, [field]: value }), {
      localAddress: '127.52.0.1',
    });
    expect(answer.status, answer.text).toBe(400);
    const [error] = problemOf(answer.text).errors!;
    expect(error!.parameter).toBe(field);
    // Named by the label the form shows beside the field, the reason from the shared text rule.
    const label = { application: 'Application', name: 'Your name', use: 'What the key is for' }[field];
    expect(error!.message).toMatch(new RegExp(`^${label} contains an? [a-z ]+character \\(U\\+[0-9A-F]{4}`));
    expect(await requestsOf(email)).toEqual([]);
  });

  it("keeps what the operator keeps: emoji, accents, joiners, and a textarea's CR LF as one line break", async () => {
    const email = 'fine-text@example.com';
    const answer = await post(
      `${server.url}/keys/requests`,
      requestBody({
        email,
        name: 'Zoë 👩‍💻 مهسا‌ی',
        application: '🏴󠁧󠁢󠁳󠁣󠁴󠁿 widget',
        use: 'line one\r\nline two',
      }),
      { localAddress: '127.52.0.2' },
    );
    expect(answer.status, answer.text).toBe(202);
    expect(await requestsOf(email)).toEqual([
      expect.objectContaining({ name: 'Zoë 👩‍💻 مهسا‌ی', application: '🏴󠁧󠁢󠁳󠁣󠁴󠁿 widget', use: 'line one\nline two' }),
    ]);
  });

  it('counts characters as the database does: 200 emoji fit a name, 201 do not', async () => {
    const fits = await post(
      `${server.url}/keys/requests`,
      requestBody({ email: 'emoji200@example.com', name: '😀'.repeat(200), application: '😀'.repeat(200) }),
      { localAddress: '127.52.0.3' },
    );
    expect(fits.status, fits.text).toBe(202);
    // Confirmed, it becomes a key whose client (application and name) is cut to what a client name holds.
    const [token] = await confirmationTokens(inbox, (address) => address === 'emoji200@example.com', 1);
    const confirmed = await pressConfirm(server.url, token!);
    expect([confirmed.status, confirmed.text]).toEqual([200, expect.stringContaining('Your key is on its way')]);
    const [granted] = await requestsOf('emoji200@example.com');
    const key = await database.db
      .selectFrom('api_keys')
      .select('client')
      .where('id', '=', granted!.key_id!)
      .executeTakeFirstOrThrow();
    expect([...key.client]).toHaveLength(200);
    const over = await post(
      `${server.url}/keys/requests`,
      requestBody({ email: 'emoji201@example.com', name: '😀'.repeat(201) }),
      { localAddress: '127.52.0.3' },
    );
    expect(over.status).toBe(400);
    expect(problemOf(over.text).errors).toEqual([
      { parameter: 'name', message: 'Your name must be 1 to 200 characters (this has 201).' },
    ]);
  });
});

describe('X-Forwarded-For from a trusted proxy that is not an address', { timeout: 30_000 }, () => {
  it.for<[string, string, string]>([
    ['not-an-ip', '127.50.0.1', '127.50.0.0/24'],
    ['198.51.100.11:5555', '198.51.100.11', '198.51.100.0/24'],
    ['[2001:db8:aa:bb::7]:443', '2001:db8:aa:bb::7', '2001:db8:aa::/56'],
    ['203.0.113.9, garbage', '127.50.0.1', '127.50.0.0/24'],
    ['garbage, 203.0.113.10', '203.0.113.10', '203.0.113.0/24'],
    ['::ffff:192.0.2.4', '192.0.2.4', '192.0.2.0/24'],
    [',,,', '127.50.0.1', '127.50.0.0/24'],
    ['fe80::1%eth0', 'fe80::1', 'fe80::/56'],
  ])('%j is never a 5xx: the client is %s', async ([header, address, network], { expect }) => {
    const email = `xff-${Buffer.from(header).toString('hex').slice(0, 20)}@example.com`;
    const answer = await post(`${proxied.url}/keys/requests`, requestBody({ email }), {
      localAddress: '127.50.0.1',
      headers: { 'X-Forwarded-For': header },
    });
    expect(answer.status, answer.text).toBe(202);
    expect(await requestsOf(email)).toEqual([
      expect.objectContaining({ client_address: address, client_network: network }),
    ]);
  });
});
