import type { ParsedMail } from 'mailparser';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/startServer.js';
import { AccountClient, csrfIn, newMailTo } from '../../testing/accountClient.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { startServerMailingTo } from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { manualClock } from '../../testing/testServer.js';

// What a holder reads of a close, a revocation and an expiry: which it was, when in words, and
// where to act; a real server, real HTTP, a real SMTP server.

const time = manualClock('2026-11-27T10:00:00Z');
const operatorEmail = 'operator@quotes.example';
const iso = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe('the words of the mails of a key coming to its end', { timeout: 90_000 }, () => {
  let database: TestDatabase;
  let inbox: SmtpInbox;
  let server: RunningServer;

  beforeAll(async () => {
    [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
    await loadFixtureCorpus(database);
    // The mails' sweeps run when the test says, on its clock; OPERATOR_EMAIL is the address a holder writes to.
    server = await startServerMailingTo(
      database,
      inbox,
      { clock: time.clock, holderMailSweepMs: 0 },
      { OPERATOR_EMAIL: operatorEmail },
    );
  });

  afterAll(async () => {
    await server?.close();
    await inbox?.close();
    await database?.drop();
  });

  /** The next mail to `email` matching `subject`, once a sweep has sent what fell due. */
  async function sweptMailTo(email: string, subject: RegExp): Promise<ParsedMail> {
    const before = inbox.messages.length;
    await server.sweepHolderMail();
    return newMailTo(inbox, before, email, subject);
  }

  it('says a key its holder closed is closed, when in words, and what to do if it was not them', async () => {
    const email = 'closer@example.com';
    const key = await server.operator.createKey({ client: 'Closer app', plan: 'starter', email });
    const client = new AccountClient(server.url);
    await client.signIn(inbox, email);
    const page = await client.get(`/account/keys/${key.id}`);
    time.advance(5 * 60_000);
    const closed = await client.post(`/account/keys/${key.id}/close`, { _csrf: csrfIn(page.text), confirm: 'yes' });
    expect(closed.status).toBe(303);

    const mail = await sweptMailTo(email, /^Quote Retrieval Service: key /);
    expect(mail.subject).toBe(`Quote Retrieval Service: key ${key.prefix}... (${key.id}) is closed`);
    const text = mail.text ?? '';
    expect(text).toContain(
      `Your API key ${key.prefix}... (${key.id}), for Closer app on the starter plan, was closed at 10:05 UTC on 27 November 2026 at your request. From then on its calls are refused with 403 (revoked-api-key).`,
    );
    expect(text).toContain(
      `If you did not ask for this, write to the operator at ${operatorEmail} at once: someone may have signed in to your keys' page with a link mailed to this address.`,
    );
    expect(text).toContain(`roll your other keys "at once" on that page:\n\n${server.url}/account\n`);
    expect(text).toContain(`To ask for a new key: ${server.url}/keys/request`);
    expect(text).not.toMatch(/revoked at|The reason recorded/);
    expect(text).not.toMatch(iso);
    const html = String(mail.html);
    expect(html).toContain(`<a href="${server.url}/account">${server.url}/account</a>`);
    expect(html).toContain(`<a href="${server.url}/keys/request">${server.url}/keys/request</a>`);
  });

  it("says a key the operator revoked is revoked, when in words, with the category's words", async () => {
    const email = 'revoked-words@example.com';
    const key = await server.operator.createKey({ client: 'Revoked app', plan: 'starter', email });
    time.advance(60 * 60_000);
    await server.operator.revokeKey(key.id, 'seen on a forum', 'terms-shared-key');
    const mail = await sweptMailTo(email, /^Quote Retrieval Service: key /);
    expect(mail.subject).toBe(`Quote Retrieval Service: key ${key.prefix}... (${key.id}) is revoked`);
    expect(mail.text).toContain('was revoked at 11:05 UTC on 27 November 2026. From then on its calls are refused');
    expect(mail.text).toContain('The reason recorded: terms: a shared or published key.');
    expect(mail.text).not.toMatch(iso);
    expect(String(mail.html)).toContain(`<a href="${server.url}/keys/request">`);
  });

  it.each([
    ['2026-12-03T23:59:59Z', 'the end of 3 December 2026 (UTC)'],
    ['2026-12-02T15:30:00Z', '15:30 UTC on 2 December 2026'],
  ])('says an expiry at %s as "%s" in the subject and the text', async (expiresAt, words) => {
    const email = `expiry-${expiresAt.slice(8, 10)}@example.com`;
    const key = await server.operator.createKey({
      client: 'Expiring app',
      plan: 'starter',
      email,
      expiresAt: new Date(expiresAt),
    });
    const mail = await sweptMailTo(email, /^Quote Retrieval Service: key /);
    expect(mail.subject).toBe(`Quote Retrieval Service: key ${key.prefix}... (${key.id}) expires at ${words}`);
    expect(mail.text).toContain(`for Expiring app on the starter plan, expires at ${words}. From then on`);
    expect(mail.text).not.toMatch(iso);
    expect(String(mail.html)).toContain(`<a href="${server.url}/account">`);
  });
});
