import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { post, requestBody, startServerMailingTo } from '../../testing/keyRequestClient.js';
import { challengeIn, solvedPayload } from '../../testing/proofOfWorkSolver.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { manualClock } from '../../testing/testServer.js';
import { recipientsOf } from './confirmationLinks.js';

// The proof of work the key-request and sign-in forms ask for while the service is busy, over
// real HTTP, on a real PostgreSQL, mailing to a real SMTP server; the solutions made with
// altcha-lib's own solver from the challenge the page carries. Settings beyond testConfig, and
// why: PROOF_OF_WORK_FROM_PERCENT=0 on two servers, busy from the first form (the default asks
// from a fifth of the hour's budget); UNPROVEN_MAILS_PER_HOUR=10 on a third, so that the default
// share (20%) is reached after two mails.

let database: TestDatabase;
let inbox: SmtpInbox;
let busy: RunningServer;
let busyToo: RunningServer;
let crossing: RunningServer;
// PROOF_OF_WORK_FROM_PERCENT=0 asks always: the words say no time to come back, Retry-After an hour.
const busyClock = manualClock('2026-11-29T09:20:00Z');
// Another hour for the third, so the busy servers' mails are not counted in its hour: 13:10, 50 minutes to go.
const crossingClock = manualClock('2026-11-29T13:10:00Z');

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  [busy, busyToo, crossing] = await Promise.all([
    startServerMailingTo(database, inbox, { clock: busyClock.clock }, { PROOF_OF_WORK_FROM_PERCENT: '0' }),
    startServerMailingTo(database, inbox, { clock: busyClock.clock }, { PROOF_OF_WORK_FROM_PERCENT: '0' }),
    startServerMailingTo(database, inbox, { clock: crossingClock.clock }, { UNPROVEN_MAILS_PER_HOUR: '10' }),
  ]);
  await busy.operator.createKey({
    client: 'Holder app',
    email: 'holder@example.com',
    plan: 'enterprise',
    unlimited: true,
    allowAnotherTrial: true,
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([busy, busyToo, crossing].filter(Boolean).map((server) => server.close()));
  await inbox?.close();
  await database?.drop();
});

let networkSeq = 0;
/** Each post from a network of its own: the per-network bounds stay out of the way. */
const fromFreshNetwork = () => `127.191.${networkSeq++}.1`;

const keyRequest = (server: RunningServer, email: string, fields: Record<string, unknown> = {}) =>
  post(`${server.url}/keys/requests`, requestBody({ email, ...fields }), { localAddress: fromFreshNetwork() });

/** The key-request form as a browser posts it. */
const keyRequestForm = (server: RunningServer, email: string, fields: Record<string, string> = {}) =>
  post(
    `${server.url}/keys/requests`,
    new URLSearchParams({
      email,
      name: 'Ann Lee',
      application: 'Quote widget',
      plan: 'trial',
      use: 'A quote of the day.',
      accept_terms: 'true',
      ...fields,
    }).toString(),
    {
      contentType: 'application/x-www-form-urlencoded',
      localAddress: fromFreshNetwork(),
      headers: { Accept: 'text/html' },
    },
  );

/** The sign-in form as a browser posts it (its double-submit token in cookie and field). */
const formToken = 'p'.repeat(43);
const signInLink = (server: RunningServer, email: string, altcha?: string) =>
  post(
    `${server.url}/account/sign-in-link`,
    new URLSearchParams({ _csrf: formToken, email, ...(altcha === undefined ? {} : { altcha }) }).toString(),
    {
      contentType: 'application/x-www-form-urlencoded',
      localAddress: fromFreshNetwork(),
      headers: { Cookie: `quotes_account_form=${formToken}`, Accept: 'text/html' },
    },
  );

const page = async (server: RunningServer, path: string) => {
  const response = await fetch(`${server.url}${path}`, { headers: { Accept: 'text/html' } });
  return {
    status: response.status,
    csp: response.headers.get('content-security-policy') ?? '',
    text: await response.text(),
  };
};

const requestsFor = async (email: string) =>
  Number(
    (
      await database.db
        .selectFrom('key_requests')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).n,
  );
const signInsFor = async (email: string) =>
  Number(
    (
      await database.db
        .selectFrom('account_sign_ins')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).n,
  );
const mailsTo = (address: string) => inbox.messages.filter((mail) => recipientsOf(mail).includes(address)).length;
/** Waits for the mails under way: a sign-in link goes out within the sign-in timer's interval, a confirmation at once. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2500));

/** A challenge fresh from the key-request form, solved as the widget would. */
const solvedFrom = async (server: RunningServer, path = '/keys/request') => {
  const challenge = challengeIn((await page(server, path)).text);
  if (!challenge) throw new Error(`no challenge on ${path}`);
  return solvedPayload(challenge);
};

describe('the proof of work while the service is busy', { timeout: 60_000 }, () => {
  it('puts the widget, served by the service itself, on both forms, and tells a visitor without JavaScript why and when', async () => {
    for (const path of ['/keys/request', '/account']) {
      const form = await page(busy, path);
      expect(form.status).toBe(200);
      expect(form.text).toContain('<altcha-widget name="altcha" auto="onload" challenge="{&quot;parameters&quot;');
      expect(form.text).toContain('<script type="module" src="/keys/altcha/setup.js"></script>');
      expect(form.text).toContain(
        '<noscript><p class="errors" role="alert">While the service is busy, this form asks your browser for a small proof of work (a second or two of computing, done with JavaScript) before anything is recorded or mailed, so that a flood of requests costs whoever sends it. Your browser runs no JavaScript here, so nothing can be sent from it: open this page in a browser that does.</p></noscript>',
      );
      // Scripts from the service itself only: no inline script, nothing from elsewhere.
      expect(form.csp).toMatch(/script-src 'self'(;|$)/);
      expect(form.csp).not.toMatch(/unsafe-inline|https?:|blob:/);
    }
    for (const file of ['/keys/altcha/altcha.js', '/keys/altcha/setup.js', '/keys/altcha/pbkdf2-worker.js']) {
      const served = await fetch(`${busy.url}${file}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    }
    expect((await fetch(`${busy.url}/keys/altcha/altcha.css`)).headers.get('content-type')).toBe(
      'text/css; charset=utf-8',
    );
  });

  it('records and mails nothing for a key request without a proof, and says so in words', async () => {
    const script = await keyRequest(busy, 'no-proof@example.com');
    expect(script.status).toBe(429);
    expect(script.headers['retry-after']).toBe('3600');
    expect(JSON.parse(script.text)).toMatchObject({
      type: 'urn:quotes:problem:too-many-key-requests',
      detail:
        'The service is busy, so a key request needs a proof of work: the `altcha` field, an ALTCHA solution of the challenge on the form at /keys/request. Nothing was recorded or mailed; try again with a solution.',
    });
    const form = await keyRequestForm(busy, 'no-proof@example.com');
    expect(form.status).toBe(429);
    expect(form.headers['retry-after']).toBe('3600');
    expect(form.text).toContain(
      'The service is busy, so this form needs a small proof of work from your browser (it runs by itself with JavaScript). Nothing was recorded or mailed; send the form again once the box below says it is done.',
    );
    // The form comes back as it was left, with a fresh challenge to solve.
    expect(form.text).toContain('value="no-proof@example.com"');
    expect(challengeIn(form.text)).toBeDefined();
    await settle();
    expect(await requestsFor('no-proof@example.com')).toBe(0);
    expect(mailsTo('no-proof@example.com')).toBe(0);
  });

  it('records and mails a key request with a solved challenge, once: a replay to either server is refused', async () => {
    const altcha = await solvedFrom(busy);
    expect((await keyRequest(busy, 'solved@example.com', { altcha })).status).toBe(202);
    expect(await requestsFor('solved@example.com')).toBe(1);
    await inbox.waitFor(1);
    expect(mailsTo('solved@example.com')).toBe(1);

    for (const server of [busy, busyToo]) {
      const replay = await keyRequest(server, 'replay@example.com', { altcha });
      expect(replay.status).toBe(429);
      expect(JSON.parse(replay.text).detail).toBe(
        'The service is busy, so a key request needs a proof of work: the `altcha` field, an ALTCHA solution of the challenge on the form at /keys/request (the one sent is used already). Nothing was recorded or mailed; try again with a solution.',
      );
    }
    // The same solution sent twice at once: the database lets exactly one through.
    const twice = await solvedFrom(busyToo);
    const both = await Promise.all([
      keyRequest(busy, 'race-a@example.com', { altcha: twice }),
      keyRequest(busyToo, 'race-b@example.com', { altcha: twice }),
    ]);
    expect(both.map((answer) => answer.status).sort()).toEqual([202, 429]);
    await settle();
    expect(await requestsFor('replay@example.com')).toBe(0);
    expect(mailsTo('replay@example.com')).toBe(0);
    expect((await requestsFor('race-a@example.com')) + (await requestsFor('race-b@example.com'))).toBe(1);
  });

  it('asks the same of a holder sign-in: nothing without a proof, the link with one, a replay refused', async () => {
    const refused = await signInLink(busy, 'holder@example.com');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('3600');
    expect(refused.text).toContain(
      'The service is busy, so this form needs a small proof of work from your browser (it runs by itself with JavaScript). Nothing was mailed; send the form again once the box below says it is done.',
    );
    expect(challengeIn(refused.text)).toBeDefined();
    await settle();
    expect(await signInsFor('holder@example.com')).toBe(0);
    expect(mailsTo('holder@example.com')).toBe(0);

    const altcha = await solvedFrom(busy, '/account');
    expect((await signInLink(busy, 'holder@example.com', altcha)).status).toBe(202);
    const replay = await signInLink(busyToo, 'holder@example.com', altcha);
    expect(replay.status).toBe(429);
    expect(replay.text).toContain('The proof of work sent with the form was used already (each works once).');
    await settle();
    expect(await signInsFor('holder@example.com')).toBe(1);
    expect(mailsTo('holder@example.com')).toBe(1);
  });
});

describe('the rule that says when the service is busy', { timeout: 60_000 }, () => {
  it('asks nothing below a fifth of the hour’s mail budget, and from there until the hour turns', async () => {
    // Quiet: no widget, no script allowed, and both forms work as they always did.
    const quiet = await page(crossing, '/keys/request');
    expect(quiet.text).not.toContain('altcha');
    expect(quiet.csp).not.toContain('script-src');
    expect((await page(crossing, '/account')).text).not.toContain('altcha');
    expect((await keyRequest(crossing, 'quiet-1@example.com')).status).toBe(202);
    expect((await signInLink(crossing, 'quiet-2@example.com')).status).toBe(202);

    // Two of the ten mails taken: busy, on both forms, for the rest of the hour (50 minutes), as
    // soon as the server has read the count again (at most a second old, read off the form's path).
    let busyForm = '';
    const formNow = async () => {
      busyForm = (await page(crossing, '/keys/request')).text;
      return challengeIn(busyForm);
    };
    await expect.poll(formNow, { timeout: 5000 }).toBeDefined();
    expect(busyForm).toContain(
      'Your browser runs no JavaScript here, so nothing can be sent from it now: come back in 50 minutes, when the form works without it again.</p></noscript>',
    );
    const refused = await keyRequest(crossing, 'busy@example.com');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('3000');
    expect(JSON.parse(refused.text).detail).toBe(
      'The service is busy, so a key request needs a proof of work: the `altcha` field, an ALTCHA solution of the challenge on the form at /keys/request. Nothing was recorded or mailed; try again in 50 minutes.',
    );
    const refusedLink = await signInLink(crossing, 'busy@example.com');
    expect(refusedLink.status).toBe(429);
    expect(refusedLink.headers['retry-after']).toBe('3000');
    expect(refusedLink.text).toContain(
      'Nothing was mailed; send the form again once the box below says it is done, or in 50 minutes, when the service asks for none.',
    );
    expect((await keyRequest(crossing, 'busy@example.com', { altcha: await solvedFrom(crossing) })).status).toBe(202);
    await settle();
    expect(await requestsFor('busy@example.com')).toBe(1);
    expect(mailsTo('quiet-1@example.com')).toBe(1);
    expect(mailsTo('busy@example.com')).toBe(1);

    // The next hour the budget is whole and the forms ask nothing again.
    crossingClock.advance(3_600_000);
    expect((await page(crossing, '/keys/request')).text).not.toContain('altcha');
    expect((await keyRequest(crossing, 'next-hour@example.com')).status).toBe(202);
  });
});
