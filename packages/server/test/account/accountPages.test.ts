import type { TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allowanceMailsOn,
  createKeyRequestService,
  createMailer,
  createOperatorApi,
  holderActorOf,
} from '@quotes/accounts';
import { silentLogger } from '@quotes/service-base';
import type { RunningServer } from '../../src/startServer.js';
import { AccountClient, csrfIn, newMailTo, signInLinkIn } from '../../testing/accountClient.js';
import { type HolderTestServer, startHolderServer } from '../../testing/holderServer.js';
import { post, requestBody } from '../../testing/keyRequestClient.js';
import type { SmtpInbox } from '../../testing/smtpInbox.js';
import { manualClock } from '../../testing/testServer.js';

const time = manualClock('2026-11-27T10:00:00Z');

// The holders' page over real HTTP, a real SMTP inbox and a real database: sign-in by the
// mailed link, what a holder sees, what they may do, and what they may not.
describe('the holders page', { timeout: 60_000 }, () => {
  let holders: HolderTestServer;
  let database: TestDatabase;
  let inbox: SmtpInbox;
  let server: RunningServer;

  beforeAll(async () => {
    // Each test signs in from 127.0.0.1: the address and network bounds are the bound tests' own;
    // the links' bound per address is this file's.
    holders = await startHolderServer({ clock: time.clock, bounds: { perEmailPerHour: 3 } });
    ({ database, inbox, server } = holders);
  });

  afterAll(() => holders?.close());

  const issue = (email: string, plan = 'starter') =>
    server.operator.createKey({ client: `App of ${email}`, plan, email, allowAnotherTrial: true });

  it('answers the same whether or not the address holds keys, and mails only a holder', async () => {
    await issue('ann@example.com');
    const client = new AccountClient(server.url);
    const before = inbox.messages.length;
    const held = await client.askForLink('ann@example.com');
    const notHeld = await client.askForLink('nobody@example.com');
    expect(held.status).toBe(202);
    expect(notHeld.status).toBe(202);
    expect(notHeld.text).toBe(held.text);
    const mail = await newMailTo(inbox, before, 'ann@example.com', /^Sign in to your/);
    expect(signInLinkIn(mail)).toMatch(/\/account\/sign-in\?token=/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      inbox.messages.slice(before).some((message) => message.to && JSON.stringify(message.to).includes('nobody')),
    ).toBe(false);
  });

  it('refuses every form posted from another port of this host, its CSRF token and all: no link, no session', async () => {
    await issue('kim@example.com');
    // What a page on another port of the same host sends: the same site, not the same origin.
    const foreign = { Origin: 'http://127.0.0.1:1', 'Sec-Fetch-Site': 'same-site' };
    const attacker = new AccountClient(server.url);
    const before = inbox.messages.length;
    const form = await attacker.get('/account');
    const asked = await attacker.post(
      '/account/sign-in-link',
      { _csrf: csrfIn(form.text), email: 'kim@example.com' },
      foreign,
    );
    expect(asked.status).toBe(403);
    expect(asked.text).toContain('another site');
    // The attacker's own link, pressed from the other port on a victim's browser: no session.
    await attacker.askForLink('kim@example.com');
    const mail = await newMailTo(inbox, before, 'kim@example.com', /^Sign in to your/);
    const link = new URL(signInLinkIn(mail)!);
    const victim = new AccountClient(server.url);
    const page = await victim.get(link.pathname + link.search);
    const pressed = await victim.post(
      '/account/sign-in',
      { _csrf: csrfIn(page.text), token: link.searchParams.get('token') ?? '' },
      foreign,
    );
    expect(pressed.status).toBe(403);
    expect(pressed.headers.getSetCookie().some((line) => line.startsWith('quotes_account='))).toBe(false);
    expect((await victim.get('/account')).text).not.toContain('kim@example.com');
  });

  it('mails the link to the key own address, never to one that only compares equal', async () => {
    const client = new AccountClient(server.url);
    const before = inbox.messages.length;
    await client.askForLink('Ann+other@Example.com');
    const mail = await newMailTo(inbox, before, 'ann@example.com', /^Sign in to your/);
    expect(mail).toBeDefined();
  });

  it('bounds the links per address and hour, the same for an address with keys and one without', async () => {
    await issue('ivy@example.com');
    const client = new AccountClient(server.url);
    for (const email of [
      'ivy@example.com',
      'ivy@example.com',
      'ivy@example.com',
      'noone@example.com',
      'noone@example.com',
      'noone@example.com',
    ])
      expect((await client.askForLink(email)).status).toBe(202);
    const held = await client.askForLink('ivy@example.com');
    const notHeld = await client.askForLink('noone@example.com');
    expect(held.status).toBe(429);
    expect(notHeld.status).toBe(429);
    expect(held.headers.get('retry-after')).toBe('3600');
    expect(held.text).toBe(notHeld.text);
    expect(held.text).toContain('try again in 60 minutes');
    time.advance(3_600_000);
  });

  it('signs in once per link; a used or expired link does not work', async () => {
    await issue('bob@example.com');
    const client = new AccountClient(server.url);
    const before = inbox.messages.length;
    await client.askForLink('bob@example.com');
    const link = signInLinkIn(await newMailTo(inbox, before, 'bob@example.com', /^Sign in/))!;
    expect((await client.useLink(link)).status).toBe(303);
    expect((await client.get('/account')).text).toContain('App of bob@example.com');
    // Used: another browser cannot use it again.
    expect((await new AccountClient(server.url).useLink(link)).status).toBe(404);

    const later = inbox.messages.length;
    await new AccountClient(server.url).askForLink('bob@example.com');
    const expiring = signInLinkIn(await newMailTo(inbox, later, 'bob@example.com', /^Sign in/))!;
    time.advance(15 * 60_000);
    expect((await new AccountClient(server.url).useLink(expiring)).status).toBe(404);
  });

  it('ends a session after 30 idle minutes, and at sign-out', async () => {
    await issue('cat@example.com');
    const client = new AccountClient(server.url);
    await client.signIn(inbox, 'cat@example.com');
    time.advance(29 * 60_000);
    expect((await client.get('/account')).text).toContain('App of cat@example.com');
    time.advance(29 * 60_000);
    expect((await client.get('/account')).text).toContain('App of cat@example.com');
    time.advance(30 * 60_000);
    const ended = await client.get('/account');
    expect(ended.text).toContain('Your session ended');
    expect(ended.text).not.toContain('App of cat@example.com');

    await client.signIn(inbox, 'cat@example.com');
    const page = await client.get('/account');
    const cookie = client.cookies.get('quotes_account')!;
    expect((await client.post('/account/sign-out', { _csrf: csrfIn(page.text) })).status).toBe(200);
    // The old cookie, replayed, names no session.
    const replay = new AccountClient(server.url);
    replay.cookies.set('quotes_account', cookie);
    expect((await replay.get('/account/keys/k_x')).status).toBe(401);
  });

  it('refuses a POST without the session CSRF token', async () => {
    const key = await issue('dan@example.com');
    const client = new AccountClient(server.url);
    await client.signIn(inbox, 'dan@example.com');
    const refused = await client.post(`/account/keys/${key.id}/close`, { confirm: 'yes' });
    expect(refused.status).toBe(403);
    const wrong = await client.post(`/account/keys/${key.id}/close`, { confirm: 'yes', _csrf: 'x'.repeat(43) });
    expect(wrong.status).toBe(403);
    expect((await server.operator.showKey(key.id)).state).toBe('active');
    // Nor the pre-session forms without theirs.
    expect(
      (await new AccountClient(server.url).post('/account/sign-in-link', { email: 'dan@example.com' })).status,
    ).toBe(403);
  });

  it("answers another holder's key as one that does not exist, for every page and action", async () => {
    const mine = await issue('eve@example.com');
    const theirs = await issue('fay@example.com');
    const client = new AccountClient(server.url);
    await client.signIn(inbox, 'eve@example.com');
    const csrf = csrfIn((await client.get(`/account/keys/${mine.id}`)).text);
    const unknown = await client.get('/account/keys/k_doesnotexist');
    const other = await client.get(`/account/keys/${theirs.id}`);
    expect(other.status).toBe(404);
    expect(other.text).toBe(unknown.text);
    expect(other.text).not.toContain('fay');
    for (const action of ['roll', 'origins', 'requests', 'close']) {
      const answer = await client.post(`/account/keys/${theirs.id}/${action}`, {
        _csrf: csrf,
        grace: 'at-once',
        origins: 'https://evil.example',
        kind: 'renewal',
        reason: 'mine now',
        confirm: 'yes',
      });
      expect(answer.status).toBe(404);
    }
    const after = await server.operator.showKey(theirs.id);
    expect(after.state).toBe('active');
    expect(after.allowedOrigins).toEqual([]);
    expect((await server.operator.auditTrail({ keyId: theirs.id })).map((entry) => entry.action)).toEqual([
      'keys create',
    ]);
  });

  it('sets origins by the operator rule, closes a key, and audits both with the holder as actor', async () => {
    const key = await issue('gil@example.com');
    const client = new AccountClient(server.url);
    await client.signIn(inbox, 'gil@example.com');
    const csrf = csrfIn((await client.get(`/account/keys/${key.id}`)).text);
    const bad = await client.post(`/account/keys/${key.id}/origins`, {
      _csrf: csrf,
      origins: 'https://ok.example\nftp://no',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('is not an origin');
    expect(bad.text).toContain('ftp://no');
    const saved = await client.post(`/account/keys/${key.id}/origins`, {
      _csrf: csrf,
      origins: 'HTTPS://App.Example:443\nhttp://localhost:*',
    });
    expect(saved.status).toBe(303);
    expect((await server.operator.showKey(key.id)).allowedOrigins).toEqual([
      'https://app.example',
      'http://localhost:*',
    ]);
    expect((await client.post(`/account/keys/${key.id}/close`, { _csrf: csrf })).status).toBe(400);
    expect((await client.post(`/account/keys/${key.id}/close`, { _csrf: csrf, confirm: 'yes' })).status).toBe(303);
    const closed = await server.operator.showKey(key.id);
    expect(closed.state).toBe('revoked');
    expect(closed).toMatchObject({ revokedReason: 'closed by its holder', revokedCategory: 'requested-by-holder' });
    const trail = await server.operator.auditTrail({ keyId: key.id });
    const actor = holderActorOf('gil@example.com');
    expect(trail.map((entry) => [entry.action, entry.actor])).toEqual([
      ['keys create', expect.stringMatching(/^os:/)],
      ['keys set-origins', actor],
      ['keys revoke', actor],
    ]);
    expect(actor).not.toContain('gil');
  });

  it('turns the allowance mails off and on from the key page, audited with the holder as actor', async () => {
    const key = await issue('hal@example.com');
    const client = new AccountClient(server.url);
    await client.signIn(inbox, 'hal@example.com');
    const page = (await client.get(`/account/keys/${key.id}`)).text;
    expect(page).toContain('Turn the allowance mails off');
    const csrf = csrfIn(page);
    expect((await client.post(`/account/keys/${key.id}/alerts`, { _csrf: csrf, mails: 'maybe' })).status).toBe(400);
    expect(await allowanceMailsOn(database.db, key.id)).toBe(true);
    expect((await client.post(`/account/keys/${key.id}/alerts`, { _csrf: csrf, mails: 'off' })).status).toBe(303);
    expect(await allowanceMailsOn(database.db, key.id)).toBe(false);
    expect((await client.get(`/account/keys/${key.id}`)).text).toContain('Turn the allowance mails on');
    expect((await client.post(`/account/keys/${key.id}/alerts`, { _csrf: csrf, mails: 'on' })).status).toBe(303);
    expect(await allowanceMailsOn(database.db, key.id)).toBe(true);
    const trail = await server.operator.auditTrail({ keyId: key.id });
    expect(
      trail.filter((entry) => entry.action === 'keys allowance-mails').map((entry) => [entry.actor, entry.after]),
    ).toEqual([
      [holderActorOf('hal@example.com'), { allowanceMails: false }],
      [holderActorOf('hal@example.com'), { allowanceMails: true }],
    ]);
  });

  it('puts a plan change in the queue once, and the approval changes the plan and mails the holder', async () => {
    const key = await issue('hal@example.com', 'starter');
    const client = new AccountClient(server.url);
    await client.signIn(inbox, 'hal@example.com');
    const csrf = csrfIn((await client.get(`/account/keys/${key.id}`)).text);
    const asked = { _csrf: csrf, kind: 'plan-change', plan: 'professional', reason: 'More calls for the launch.' };
    expect((await client.post(`/account/keys/${key.id}/requests`, asked)).status).toBe(303);
    const again = await client.post(`/account/keys/${key.id}/requests`, asked);
    expect(again.status).toBe(409);
    expect(again.text).toContain('already waiting');

    const service = createKeyRequestService(
      database,
      createOperatorApi(database, { clock: time.clock }),
      {
        mailer: createMailer({
          smtpUrl: inbox.url,
          from: 'Keys <keys@quotes.example.test>',
          outboxDir: '/nonexistent',
        }),
        publicBaseUrl: server.url,
        bounds: {
          perAddressPerHour: 100,
          perNetworkPerHour: 100,
          perEmailPerHour: 100,
          perHour: 1000,
          maxOpen: 1000,
          unprovenMailsPerHour: 1000,
        },
      },
      time.clock,
      silentLogger,
    );
    const waiting = (await service.list('pending')).find((request) => request.forKeyId === key.id)!;
    expect(waiting.kind).toBe('plan-change');
    expect(waiting.use).toBe('More calls for the launch.');
    const before = inbox.messages.length;
    const approved = await service.approve(waiting.id, { send: true });
    expect(approved.issued).toBeNull();
    expect(approved.changed?.plan).toBe('professional');
    expect((await server.operator.showKey(key.id)).plan).toBe('professional');
    const mail = await newMailTo(inbox, before, 'hal@example.com', /is approved$/);
    expect(mail.text).toContain('professional');
    expect((await client.get('/account')).text).toMatch(/approved/);

    // A renewal, rejected: the reason goes to the holder, the key stays as it was.
    const renewal = { _csrf: csrf, kind: 'renewal', reason: 'Another year.' };
    // A starter key without an expiry has nothing to renew.
    expect((await client.post(`/account/keys/${key.id}/requests`, renewal)).status).toBe(409);
  });

  it('settles the requests waiting on a key when it is closed or revoked: nothing about it stays in the queue', async () => {
    const closed = await issue('lea@example.com', 'starter');
    const revoked = await issue('lea@example.com', 'starter');
    const client = new AccountClient(server.url);
    await client.signIn(inbox, 'lea@example.com');
    const csrf = csrfIn((await client.get(`/account/keys/${closed.id}`)).text);
    for (const key of [closed, revoked]) {
      const asked = { _csrf: csrf, kind: 'plan-change', plan: 'professional', reason: 'More calls.' };
      expect((await client.post(`/account/keys/${key.id}/requests`, asked)).status).toBe(303);
    }
    expect((await client.post(`/account/keys/${closed.id}/close`, { _csrf: csrf, confirm: 'yes' })).status).toBe(303);
    await server.operator.revokeKey(revoked.id, 'leaked');
    const requests = await database.db
      .selectFrom('key_requests')
      .select(['for_key_id', 'status', 'rejection_reason', 'rejection_category'])
      .where('for_key_id', 'in', [closed.id, revoked.id])
      .execute();
    expect(requests).toHaveLength(2);
    for (const request of requests)
      expect(request, request.for_key_id ?? '').toMatchObject({
        status: 'rejected',
        rejection_reason: 'the key was closed before a decision',
        rejection_category: 'key-closed',
      });
  });

  it("does not count a holder's requests against the bounds of asking for a key", async () => {
    const client = new AccountClient(server.url);
    const keys = [];
    for (let index = 0; index < 3; index++) keys.push(await issue('jo@example.com'));
    await client.signIn(inbox, 'jo@example.com');
    const csrf = csrfIn((await client.get('/account')).text);
    for (const key of keys)
      expect(
        (
          await client.post(`/account/keys/${key.id}/requests`, {
            _csrf: csrf,
            kind: 'plan-change',
            plan: 'platform',
            reason: 'Growth.',
          })
        ).status,
      ).toBe(303);
    // Three an hour per address are the form's bound; the holder's three requests are not among them.
    const asked = await post(`${server.url}/keys/requests`, requestBody({ email: 'jo@example.com', plan: 'starter' }), {
      localAddress: '127.31.0.1',
    });
    expect(asked.status).toBe(202);
  });
});
