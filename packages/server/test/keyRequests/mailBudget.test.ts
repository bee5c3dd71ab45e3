import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { post, requestBody, startServerMailingTo } from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { testConfig } from '../../testing/testConfig.js';
import { manualClock } from '../../testing/testServer.js';
import { recipientsOf } from './confirmationLinks.js';

// The hourly budget of mails to unproven addresses, over real HTTP, two servers on one real
// PostgreSQL and a real SMTP server: key requests' confirmation links and holders' sign-in links
// share it, servers at once never take more than it holds, and past it a request is refused in
// words and mailed nothing. Settings beyond testConfig, and why: UNPROVEN_MAILS_PER_HOUR=6, a
// budget this test can spend in a few posts (the default is 300); PROOF_OF_WORK_FROM_PERCENT=100,
// the budget alone, without the proof of work asked from a fifth of it (proofOfWork.test.ts).
const budget = 6;
const config = testConfig({
  UNPROVEN_MAILS_PER_HOUR: String(budget),
  PROOF_OF_WORK_FROM_PERCENT: '100',
  SMTP_URL: 'smtp://placeholder',
  MAIL_FROM: 'Keys <keys@quotes.example.test>',
});

let database: TestDatabase;
let inbox: SmtpInbox;
let servers: RunningServer[];
// 09:20: the hour's budget is whole again at 10:00, 40 minutes (2400 s) on.
const clock = manualClock('2026-11-29T09:20:00Z');

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  servers = await Promise.all(
    [0, 1].map(() =>
      startServerMailingTo(database, inbox, { config: { ...config, SMTP_URL: inbox.url }, clock: clock.clock }),
    ),
  );
  await servers[0]!.operator.createKey({
    client: 'Holder app',
    email: 'holder@example.com',
    plan: 'enterprise',
    unlimited: true,
    allowAnotherTrial: true,
  });
}, 60_000);
afterAll(async () => {
  await Promise.all((servers ?? []).map((server) => server.close()));
  await inbox?.close();
  await database?.drop();
});

let networkSeq = 0;
const fromFreshNetwork = () => `127.190.${networkSeq++}.1`;

const keyRequest = (server: RunningServer, email: string) =>
  post(`${server.url}/keys/requests`, requestBody({ email }), { localAddress: fromFreshNetwork() });

/** The sign-in form as a browser posts it (its double-submit token in cookie and field). */
const formToken = 'b'.repeat(43);
const signInLink = (server: RunningServer, email: string) =>
  post(`${server.url}/account/sign-in-link`, new URLSearchParams({ _csrf: formToken, email }).toString(), {
    contentType: 'application/x-www-form-urlencoded',
    localAddress: fromFreshNetwork(),
    headers: { Cookie: `quotes_account_form=${formToken}`, Accept: 'text/html' },
  });

const mailsTo = (prefix: string) =>
  inbox.messages.filter((mail) => recipientsOf(mail).some((to) => to.startsWith(prefix))).length;

/** Waits for the mails under way: a sign-in link goes out within the sign-in timer's interval, a confirmation at once. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

describe('the hourly budget of mails to unproven addresses', { timeout: 60_000 }, () => {
  it('is shared by both forms and both servers, and refuses past it in words, mailing nothing', async () => {
    // A sign-in link for an address holding no key takes its place, though nothing is mailed.
    expect((await signInLink(servers[0]!, 'stranger@example.com')).status).toBe(202);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => keyRequest(servers[i % 2]!, `budget-${i}@example.com`)),
    );
    const refused = answers.filter((answer) => answer.status === 429);
    expect(answers.filter((answer) => answer.status === 202)).toHaveLength(budget - 1);
    expect(refused).toHaveLength(10 - (budget - 1));
    for (const answer of refused) {
      expect(answer.headers['retry-after']).toBe('2400');
      expect(JSON.parse(answer.text).detail).toBe(
        'The service has sent all the confirmation mails it sends to new addresses this hour, so nothing was recorded or mailed; try again in 40 minutes.',
      );
    }
    // The holder's own sign-in is refused too: the budget does not look at who holds a key.
    const holder = await signInLink(servers[1]!, 'holder@example.com');
    expect(holder.status).toBe(429);
    expect(holder.headers['retry-after']).toBe('2400');
    expect(holder.text).toContain(
      'The service has sent all the links it mails to unproven addresses this hour, so nothing was mailed; try again in 40 minutes.',
    );
    await inbox.waitFor(budget - 1);
    await settle();
    expect(mailsTo('budget-')).toBe(budget - 1);
    expect(mailsTo('holder@')).toBe(0);
    expect(mailsTo('stranger@')).toBe(0);

    // The next hour the budget is whole again.
    clock.advance(3_600_000);
    expect((await keyRequest(servers[0]!, 'next-hour@example.com')).status).toBe(202);
    expect((await signInLink(servers[1]!, 'holder@example.com')).status).toBe(202);
    await inbox.waitFor(budget + 1);
    await settle();
    expect(mailsTo('next-hour@')).toBe(1);
    expect(mailsTo('holder@')).toBe(1);
    expect(inbox.messages).toHaveLength(budget + 1);
  });
});
