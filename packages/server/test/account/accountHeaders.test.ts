import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/startServer.js';
import { AccountClient } from '../../testing/accountClient.js';
import { startServerMailingTo } from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { capturedLogger, manualClock } from '../../testing/testServer.js';

const time = manualClock('2026-11-27T10:00:00Z');
const log = capturedLogger();

// The holders' page served for https (PUBLIC_BASE_URL): its cookies Secure, its headers the
// signed-in pages' own; and a session that is used all the time still ends after 12 hours.
describe("the holders' page headers and session bounds", { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let inbox: SmtpInbox;
  let server: RunningServer;

  beforeAll(async () => {
    [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
    server = await startServerMailingTo(database, inbox, {
      clock: time.clock,
      logger: log.logger,
      keyRequests: { publicBaseUrl: 'https://quotes.example.test' },
    });
  });

  afterAll(async () => {
    await server?.close();
    await inbox?.close();
    await database?.drop();
  });

  it('sets __Host- cookies (HttpOnly, SameSite=Strict, Secure) and the pages’ security headers', async () => {
    const answer = await new AccountClient(server.url).get('/account');
    expect(answer.status).toBe(200);
    const cookie = answer.headers.getSetCookie()[0]!;
    // A __Host- cookie: Secure, for the whole host, no Domain; no other host can set one over it.
    expect(cookie).toMatch(/^__Host-quotes_account_form=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/Path=\/(;|$)/);
    expect(cookie).not.toMatch(/Domain=/i);
    const policy = answer.headers.get('content-security-policy')!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(answer.headers.get('strict-transport-security')).toMatch(/max-age=/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('ends a session 12 hours after sign-in however often it is used', async () => {
    await server.operator.createKey({ client: 'Busy app', plan: 'starter', email: 'busy@example.com' });
    const client = new AccountClient(server.url);
    // The mailed link points at the public address; the test opens it on the server itself.
    const before = inbox.messages.length;
    await client.askForLink('busy@example.com');
    await inbox.waitFor(before + 1);
    const link = /https:\/\/quotes\.example\.test(\/account\/sign-in\?token=[A-Za-z0-9_-]+)/.exec(
      inbox.messages.at(-1)!.text ?? '',
    )![1]!;
    expect((await client.useLink(`${server.url}${link}`)).status).toBe(303);
    // The request log saw the link's URL and the session's cookie pass: neither, nor the address, is in it.
    const token = new URL(`${server.url}${link}`).searchParams.get('token')!;
    const logged = log.lines.join('');
    expect(logged).toContain('/account/sign-in');
    for (const secret of [token, client.cookies.get('quotes_account')!, 'busy@example.com'])
      expect(logged).not.toContain(secret);
    for (let step = 0; step < 24; step++) {
      time.advance(29 * 60_000);
      expect((await client.get('/account')).text).toContain('Busy app');
    }
    time.advance(24 * 60_000);
    const ended = await client.get('/account');
    expect(ended.text).toContain('Your session ended');
    expect(ended.text).not.toContain('Busy app');
  });
});
