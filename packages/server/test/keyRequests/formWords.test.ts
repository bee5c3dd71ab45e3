import { keyRequestTextFields } from '@quotes/accounts';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { checkTextField } from '@quotes/text-rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/startServer.js';
import {
  confirmationLinkIn,
  mailTo,
  post,
  requestBody,
  startServerMailingTo,
  tokenOfLink,
} from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { pressConfirm } from './confirmationLinks.js';

// The request form as a person meets it in a browser, over real HTTP on a real server and
// PostgreSQL: each refusal beside its field in words, what was typed and ticked kept, a wait in
// minutes, and why a confirmed request waits, without another person's data.
let database: TestDatabase;
let inbox: SmtpInbox;
let server: RunningServer;

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  server = await startServerMailingTo(database, inbox, {
    keyRequests: {
      bounds: {
        perAddressPerHour: 2,
        perNetworkPerHour: 50,
        perEmailPerHour: 50,
        perHour: 10_000,
        maxOpen: 10_000,
        unprovenMailsPerHour: 10_000,
      },
    },
  });
});
afterAll(async () => {
  await server?.close();
  await inbox?.close();
  await database?.drop();
});

/** The form as the browser posts it, from the service's own page. */
const fromBrowser = (fields: Record<string, string>, from: string) =>
  post(`${server.url}/keys/requests`, new URLSearchParams(fields).toString(), {
    contentType: 'application/x-www-form-urlencoded',
    localAddress: from,
    headers: { Origin: server.url, 'Sec-Fetch-Site': 'same-origin', Accept: 'text/html,*/*;q=0.8' },
  });

const filled = {
  email: 'ann@example.com',
  name: 'Ann Lee',
  application: 'Reading club',
  plan: 'starter',
  use: 'A quote of the day on our reading club page.',
  accept_terms: 'true',
};

/** The text beside a field, as the page shows it (entities of the template decoded). */
const besideField = (page: string, field: string) =>
  new RegExp(`<span class="field-error" id="${field}-error">([^<]*)</span>`)
    .exec(page)?.[1]
    ?.replaceAll('&#39;', "'")
    .replaceAll('&quot;', '"');

describe('the request form in words', { timeout: 60_000 }, () => {
  it('says beside the field why an address is refused, by its label, and keeps every value and the tick', async () => {
    const answer = await fromBrowser({ ...filled, email: 'ann@example' }, '127.61.0.1');
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(besideField(answer.text, 'email')).toBe('ann@example has no domain ending such as .com.');
    // The list at the top names the field by its label and leads to it; never the field's key.
    expect(answer.text).toContain('<a href="#email">E-mail address</a>');
    expect(answer.text).not.toMatch(/>email: /);
    // What was typed, chosen and ticked is there to correct.
    expect(answer.text).toContain('id="email" name="email"');
    expect(answer.text).toMatch(/id="email"[^>]*value="ann@example"/);
    expect(answer.text).toMatch(/id="name"[^>]*value="Ann Lee"/);
    expect(answer.text).toMatch(/id="application"[^>]*value="Reading club"/);
    expect(answer.text).toContain('<option value="starter" selected>');
    expect(answer.text).toContain('A quote of the day on our reading club page.</textarea>');
    expect(answer.text).toMatch(
      /<input type="checkbox" id="accept_terms" name="accept_terms" value="true" required checked/,
    );
  });

  it('gives other fields’ reasons in words from the shared text rule, and the terms unticked stay unticked', async () => {
    const longName = 'N'.repeat(keyRequestTextFields.name.maxCharacters + 15);
    const { accept_terms: _untick, ...unticked } = filled;
    const answer = await fromBrowser({ ...unticked, name: longName, application: '' }, '127.61.0.2');
    expect(answer.status).toBe(400);
    const rule = checkTextField(longName, keyRequestTextFields.name);
    expect('message' in rule).toBe(true);
    expect(besideField(answer.text, 'name')).toBe(`Your name ${'message' in rule ? rule.message : ''}.`);
    expect(besideField(answer.text, 'application')).toBe('Enter the name of the application the key is for.');
    expect(besideField(answer.text, 'accept_terms')).toBe(
      'Tick the box to accept the terms of use: no key is issued without them.',
    );
    expect(answer.text).not.toMatch(/name="accept_terms" value="true" required checked/);
    for (const label of ['Your name', 'Application', 'Terms of use'])
      expect(answer.text).toMatch(new RegExp(`<li><a href="#\\w+">${label}</a></li>`));
  });

  it('gives a wait in minutes, with Retry-After in seconds', async () => {
    const from = '127.62.0.1';
    for (const n of [1, 2])
      expect((await fromBrowser({ ...filled, email: `wait${n}@example.com` }, from)).status).toBe(202);
    const refused = await fromBrowser({ ...filled, email: 'wait3@example.com' }, from);
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers['retry-after']);
    expect(seconds).toBeGreaterThan(60);
    const minutes = Math.ceil(seconds / 60);
    expect(refused.text).toContain(`try again in ${minutes} minutes.`);
    expect(refused.text).not.toMatch(/\d+ seconds/);
    // A script gets the same words in the problem's detail.
    const script = await post(`${server.url}/keys/requests`, requestBody({ email: 'wait4@example.com' }), {
      localAddress: from,
    });
    expect(script.status).toBe(429);
    expect(JSON.parse(script.text).detail).toMatch(/try again in \d+ minutes?\.$/);
  });
});

describe('why a confirmed request waits, as the person who asked reads it', { timeout: 60_000 }, () => {
  async function askAndConfirm(email: string, from: string): Promise<string> {
    const answer = await post(`${server.url}/keys/requests`, requestBody({ email, application: `App of ${email}` }), {
      localAddress: from,
    });
    expect(answer.status, answer.text).toBe(202);
    const link = confirmationLinkIn(await mailTo(inbox, email, /^Confirm your request/))!;
    const page = await pressConfirm(server.url, tokenOfLink(link), from);
    expect(page.status).toBe(200);
    return page.text;
  }

  it('a second trial from the same network says why, naming no one', async () => {
    const first = await askAndConfirm('flo@example.org', '127.63.0.1');
    expect(first).toContain('Your key is on its way');
    const earlier = await database.db
      .selectFrom('key_requests')
      .select(['id', 'key_id', 'decided_at'])
      .where('email', '=', 'flo@example.org')
      .executeTakeFirstOrThrow();
    const second = await askAndConfirm('gus@example.com', '127.63.0.2');
    expect(second).toContain('It waits for a person because a trial key was given to someone on the same network');
    for (const private_ of ['flo@example.org', 'App of flo', earlier.id, earlier.key_id!, '127.63.0.0'])
      expect(second).not.toContain(private_);
    expect(second).not.toContain(earlier.decided_at!.toISOString().slice(0, 16));
    // The receipt mailed says the same, and names no one either.
    const receipt = await mailTo(inbox, 'gus@example.com', /is with the operator/);
    expect(receipt.text).toContain(
      'It waits for a person because a trial key was given to someone on the same network',
    );
    for (const private_ of ['flo@example.org', earlier.id, earlier.key_id!])
      expect(receipt.text).not.toContain(private_);
    // The operator still has the whole reason.
    const row = await database.db
      .selectFrom('key_requests')
      .select('reasons')
      .where('email', '=', 'gus@example.com')
      .executeTakeFirstOrThrow();
    expect(row.reasons.join()).toContain(earlier.id);
  });

  it('a second trial of the same person says why, naming no key', async () => {
    await askAndConfirm('hal@example.net', '127.64.0.1');
    const again = await askAndConfirm('Hal+two@example.net', '127.65.0.1');
    expect(again).toContain(
      'It waits for a person because this address or application already had a trial key, and a person gets one trial unless the operator agrees to another.',
    );
    expect(again).not.toMatch(/k_[A-Za-z0-9]+/);
  });
});
