import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import {
  confirmationLinkIn,
  keyIn,
  mailTo,
  post,
  requestBody,
  tokenOfLink,
  startServerMailingTo,
  unpacedPublicPages,
} from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { capturedLogger, manualClock } from '../../testing/testServer.js';

// The whole flow on a real server, a real PostgreSQL and a real SMTP server: each test sends
// from its own 127.x address (its own client and network) so the hourly bounds of one do not
// touch another.
let database: TestDatabase;
let inbox: SmtpInbox;
let server: RunningServer;
const clock = manualClock('2026-11-26T09:00:00Z');
const logged = capturedLogger();

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  await loadFixtureCorpus(database);
  // The public pages' pace lifted (unpacedPublicPages): the bounds here are hourly, on the manual clock.
  server = await startServerMailingTo(
    database,
    inbox,
    { clock: clock.clock, logger: logged.logger },
    unpacedPublicPages,
  );
});
afterAll(async () => {
  await server?.close();
  await inbox?.close();
  await database?.drop();
});

const requestsOf = (email: string) =>
  database.db.selectFrom('key_requests').selectAll().where('email', '=', email).orderBy('created_at').execute();

/** Asks for a key from a client address and returns the confirmation link mailed for it. */
async function ask(email: string, from: string, fields: Record<string, unknown> = {}): Promise<string> {
  const answer = await post(
    `${server.url}/keys/requests`,
    requestBody({ email, application: `App of ${email}`, ...fields }),
    { localAddress: from },
  );
  expect(answer.status, answer.text).toBe(202);
  const link = confirmationLinkIn(await mailTo(inbox, email, /^Confirm your request/));
  expect(link).toBeDefined();
  return link!;
}

const confirm = (token: string, from = '127.0.0.1') =>
  post(`${server.url}/keys/confirm`, new URLSearchParams({ token }).toString(), {
    contentType: 'application/x-www-form-urlencoded',
    localAddress: from,
  });

describe('asking for a key', { timeout: 60_000 }, () => {
  it('mails a link whose GET confirms nothing; its POST grants a trial key that works', async () => {
    const answer = await post(
      `${server.url}/keys/requests`,
      requestBody({ email: 'bo@example.org', application: 'Bo app' }),
      {
        localAddress: '127.1.0.1',
      },
    );
    expect(answer.status).toBe(202);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.text)).toEqual({ status: 'received', detail: expect.stringMatching(/Check your mail/) });
    const mail = await mailTo(inbox, 'bo@example.org', /^Confirm your request/);
    expect(mail.html).toContain('/keys/confirm?token=');
    const link = confirmationLinkIn(mail)!;
    expect(link.startsWith(server.url)).toBe(true);
    const [stored] = await requestsOf('bo@example.org');
    // Only the token's hash is kept.
    expect(stored!.token_hash?.length).toBe(32);
    expect(stored!.token_hash?.toString('utf8')).not.toContain(tokenOfLink(link));

    // A mail scanner fetching the link (twice) confirms nothing.
    for (let fetchCount = 0; fetchCount < 2; fetchCount++) {
      const page = await fetch(link);
      expect(page.status).toBe(200);
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await page.text()).toContain('<button type="submit">Confirm</button>');
    }
    expect((await requestsOf('bo@example.org'))[0]!.status).toBe('unconfirmed');

    const confirmed = await confirm(tokenOfLink(link));
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('Your key is on its way');
    const keyMail = await mailTo(inbox, 'bo@example.org', /API key \(trial plan\)/);
    expect(keyMail.html).toContain('qk_');
    const key = keyIn(keyMail)!;
    const quote = await fetch(`${server.url}/v1/quotes-random`, { headers: { 'X-API-Key': key } });
    expect(quote.status).toBe(200);
    const [approved] = await requestsOf('bo@example.org');
    expect(approved).toMatchObject({ status: 'approved', token_hash: null, client_network: '127.1.0.0/24' });
    // Granted by the service itself, and recorded as its action.
    const audited = await database.db
      .selectFrom('operator_audit')
      .select(['actor', 'action', 'target'])
      .where('key_id', '=', approved!.key_id)
      .orderBy('id')
      .execute();
    expect(audited).toEqual([
      { actor: 'service:key-requests', action: 'keys create', target: approved!.key_id },
      { actor: 'service:key-requests', action: 'requests approve', target: approved!.id },
    ]);

    // The link works once.
    expect((await confirm(tokenOfLink(link))).status).toBe(404);
    expect((await fetch(link)).status).toBe(404);
    // The request log shows the link without its token.
    const lines = logged.lines.join('');
    expect(lines).toContain('/keys/confirm?token=[redacted]');
    expect(lines).not.toContain(tokenOfLink(link));
  });

  it('queues a second trial of the same person (case and +tag ignored) with the reason in words', async () => {
    await confirm(tokenOfLink(await ask('Ann+x@Example.com', '127.2.0.1')));
    await mailTo(inbox, 'Ann+x@Example.com', /API key \(trial plan\)/);
    // Another network, the same person.
    const answer = await confirm(tokenOfLink(await ask('ann@example.com', '127.3.0.1')));
    expect(answer.text).toContain('with the operator');
    const [second] = await requestsOf('ann@example.com');
    expect(second!.status).toBe('pending');
    expect(second!.reasons.join()).toMatch(/one trial per person: Ann\+x@Example\.com already had trial key k_/);
    await mailTo(inbox, 'ann@example.com', /is with the operator/);
  });

  it('queues a second trial from the same network within 30 days', async () => {
    await confirm(tokenOfLink(await ask('cy@example.net', '127.4.0.1')));
    await mailTo(inbox, 'cy@example.net', /API key \(trial plan\)/);
    await confirm(tokenOfLink(await ask('dee@example.com', '127.4.0.2')));
    const [second] = await requestsOf('dee@example.com');
    expect(second!.status).toBe('pending');
    expect(second!.reasons.join()).toMatch(/one trial per network: 127\.4\.0\.0\/24 had a trial granted/);
  });

  it('leaves a paid plan and a disposable address to the operator', async () => {
    await confirm(tokenOfLink(await ask('eve@example.com', '127.5.0.1', { plan: 'starter' })));
    await confirm(tokenOfLink(await ask('fay@mailinator.com', '127.6.0.1')));
    expect((await requestsOf('eve@example.com'))[0]!.reasons).toEqual(['the starter plan is granted by the operator']);
    expect((await requestsOf('fay@mailinator.com'))[0]!.reasons).toEqual([
      'mailinator.com is a disposable-mail domain',
    ]);
  });

  it('refuses an expired link and marks the request expired', async () => {
    const link = await ask('gus@example.com', '127.7.0.1');
    clock.advance(24 * 3_600_000 + 1000);
    try {
      expect((await fetch(link)).status).toBe(404);
      expect((await confirm(tokenOfLink(link))).status).toBe(404);
      await post(`${server.url}/keys/requests`, requestBody({ email: 'hal@example.com' }), {
        localAddress: '127.7.0.2',
      });
      expect((await requestsOf('gus@example.com'))[0]).toMatchObject({ status: 'expired', token_hash: null });
    } finally {
      clock.advance(-(24 * 3_600_000 + 1000));
    }
  });

  it('answers the same whatever the address has had', async () => {
    const first = await post(`${server.url}/keys/requests`, requestBody({ email: 'bo@example.org' }), {
      localAddress: '127.8.0.1',
    });
    const fresh = await post(`${server.url}/keys/requests`, requestBody({ email: 'never-seen@example.org' }), {
      localAddress: '127.8.0.2',
    });
    expect([first.status, first.text]).toEqual([fresh.status, fresh.text]);
  });

  it('keeps a flood of 40 from one address to a handful of rows and mails, the rest 429 with Retry-After', async () => {
    const before = inbox.messages.length;
    const answers = [];
    for (let index = 0; index < 40; index++)
      answers.push(
        await post(`${server.url}/keys/requests`, requestBody({ email: `flood${index}@example.com` }), {
          localAddress: '127.9.0.1',
        }),
      );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(refused.text).type).toBe('urn:quotes:problem:too-many-key-requests');
    const rows = await database.db
      .selectFrom('key_requests')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('client_address', '=', '127.9.0.1')
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(5);
    // Mail goes out after the answer: wait for it, then count only this flood's.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const floodMail = inbox.messages
      .slice(before)
      .filter((mail) => /^flood\d+@/.test(mail.to ? [mail.to].flat()[0]!.text : ''));
    expect(floodMail).toHaveLength(5);
  });

  it('bounds one e-mail address across client addresses', async () => {
    const statuses = [];
    for (let index = 0; index < 5; index++)
      statuses.push(
        (
          await post(`${server.url}/keys/requests`, requestBody({ email: 'ivy@example.com' }), {
            localAddress: `127.10.${index}.1`,
          })
        ).status,
      );
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
  });
});

describe('the cap on open requests', { timeout: 60_000 }, () => {
  it('drops the oldest unconfirmed request to make room, and keeps the pending ones', async () => {
    // A database of its own: the cap counts every open request.
    const own = await createTestDatabase();
    const capped = await startServerMailingTo(own, inbox, {
      keyRequests: {
        bounds: {
          perAddressPerHour: 100,
          perNetworkPerHour: 100,
          perEmailPerHour: 100,
          perHour: 100,
          maxOpen: 3,
          unprovenMailsPerHour: 100,
        },
      },
    });
    try {
      const send = (email: string, plan = 'trial') =>
        post(`${capped.url}/keys/requests`, requestBody({ email, plan, application: email }), {
          localAddress: '127.30.0.1',
        });
      await send('cap0@example.com', 'starter');
      const link = confirmationLinkIn(await mailTo(inbox, 'cap0@example.com', /^Confirm your request/))!;
      await post(`${capped.url}/keys/confirm`, `token=${tokenOfLink(link)}`, {
        contentType: 'application/x-www-form-urlencoded',
      });
      for (let index = 1; index <= 5; index++) expect((await send(`cap${index}@example.com`)).status).toBe(202);
      const rows = await own.db.selectFrom('key_requests').select(['email', 'status']).orderBy('created_at').execute();
      // The pending request counts and stays; of cap1 to cap5 the two newest fit beside it.
      expect(rows.map((row) => `${row.email} ${row.status}`)).toEqual([
        'cap0@example.com pending',
        'cap4@example.com unconfirmed',
        'cap5@example.com unconfirmed',
      ]);
    } finally {
      await capped.close();
      await own.drop();
    }
  });
});

describe('bad requests', { timeout: 30_000 }, () => {
  const from = '127.11.0.1';
  const problemOf = (text: string) => JSON.parse(text) as { type: string; errors?: { parameter: string }[] };

  it('names each bad field: too long, a control character, a missing or unknown field, terms not accepted', async () => {
    const answer = await post(
      `${server.url}/keys/requests`,
      JSON.stringify({
        email: 'not an address',
        name: 'Ann\u001b[31m',
        application: 'x',
        use: 'u'.repeat(1001),
        accept_terms: false,
        extra: 1,
      }),
      { localAddress: from },
    );
    expect(answer.status).toBe(400);
    const named = problemOf(answer.text)
      .errors!.map((error) => error.parameter)
      .sort();
    expect(named).toEqual(['accept_terms', 'email', 'extra', 'name', 'use']);
    const missing = await post(`${server.url}/keys/requests`, JSON.stringify({ email: 'a@example.com' }), {
      localAddress: from,
    });
    expect(
      problemOf(missing.text)
        .errors!.map((error) => error.parameter)
        .sort(),
    ).toEqual(['accept_terms', 'application', 'name', 'use']);
  });

  it('answers a body over 16 KB with 413', async () => {
    const answer = await post(
      `${server.url}/keys/requests`,
      requestBody({ email: 'a@example.com', use: 'x'.repeat(17_000) }),
      {
        localAddress: from,
      },
    );
    expect(answer.status).toBe(413);
    expect(problemOf(answer.text).type).toBe('urn:quotes:problem:request-too-large');
  });

  it('refuses a form posted from another site (403) and takes one from its own pages', async () => {
    const form = new URLSearchParams({
      email: 'jo@example.com',
      name: 'Jo',
      application: 'App',
      plan: 'trial',
      use: 'Testing',
      accept_terms: 'true',
    }).toString();
    const contentType = 'application/x-www-form-urlencoded';
    const crossSite = await post(`${server.url}/keys/requests`, form, {
      contentType,
      localAddress: '127.12.0.1',
      headers: { Origin: 'https://elsewhere.example', 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const otherOrigin = await post(`${server.url}/keys/requests`, form, {
      contentType,
      localAddress: '127.12.0.1',
      headers: { Origin: 'https://elsewhere.example' },
    });
    expect(otherOrigin.status).toBe(403);
    const own = await post(`${server.url}/keys/requests`, form, {
      contentType,
      localAddress: '127.12.0.1',
      headers: { Origin: server.url, 'Sec-Fetch-Site': 'same-origin', Accept: 'text/html,*/*;q=0.8' },
    });
    expect(own.status).toBe(202);
    expect(own.text).toContain('Check your mail');
    // A script posting the same form gets JSON.
    const script = await post(`${server.url}/keys/requests`, form.replace('jo%40', 'jo2%40'), {
      contentType,
      localAddress: '127.12.0.2',
    });
    expect([script.status, JSON.parse(script.text).status]).toEqual([202, 'received']);
  });

  it('mails nothing and keeps no token when the hidden field is filled, and answers as usual', async () => {
    const answer = await post(
      `${server.url}/keys/requests`,
      requestBody({ email: 'bot@example.com', homepage: 'http://spam' }),
      {
        localAddress: '127.13.0.1',
      },
    );
    expect(answer.status).toBe(202);
    // Recorded to be counted against the bounds like any post, but never confirmable.
    expect(await requestsOf('bot@example.com')).toEqual([
      expect.objectContaining({
        status: 'unconfirmed',
        token_hash: null,
        reasons: [expect.stringMatching(/hidden field/)],
      }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(inbox.messages.some((mail) => mail.to && [mail.to].flat()[0]!.text === 'bot@example.com')).toBe(false);
  });

  it('believes X-Forwarded-For only from a proxy TRUST_PROXY names', async () => {
    await post(`${server.url}/keys/requests`, requestBody({ email: 'kim@example.com' }), {
      localAddress: '127.14.0.1',
      headers: { 'X-Forwarded-For': '203.0.113.7' },
    });
    expect((await requestsOf('kim@example.com'))[0]!.client_address).toBe('127.14.0.1');
    const proxied = await startServerMailingTo(database, inbox, { keyRequests: { trustProxy: ['127.15.0.1'] } });
    try {
      await post(`${proxied.url}/keys/requests`, requestBody({ email: 'lou@example.com' }), {
        localAddress: '127.15.0.1',
        headers: { 'X-Forwarded-For': '198.51.100.9, 203.0.113.7' },
      });
      expect((await requestsOf('lou@example.com'))[0]).toMatchObject({
        client_address: '203.0.113.7',
        client_network: '203.0.113.0/24',
      });
    } finally {
      await proxied.close();
    }
  });
});
