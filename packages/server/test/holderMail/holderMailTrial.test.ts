import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUsage } from '@quotes/accounts/usage-override';
import type { TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { manualClock } from '../../testing/testServer.js';
import { holderMailDatabase, mailingServer, mailsTo, publicBaseUrl } from './holderMailFixture.js';

// A trial's allowance covers its 30 days, not the calendar month: its holder's 80% and 100%
// mails count the calls of every month the trial spans, and say when the trial ends.

const clock = manualClock('2026-11-29T10:00:00Z');
let database: TestDatabase;
let inbox: SmtpInbox;
let server: RunningServer;

beforeAll(async () => {
  database = await holderMailDatabase();
  inbox = await startSmtpInbox();
  server = await mailingServer(database, clock, inbox.url);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await inbox?.close();
  await database?.drop();
});

describe('mail to the holder of a trial across the 1st', { timeout: 60_000 }, () => {
  it('counts the calls of both months and says when the trial ends', async () => {
    const email = 'tia@example.com';
    const key = await server.operator.createKey({ client: 'Trial app', plan: 'trial', email });
    await setUsage(database, key.id, 700, '2026-11');
    await server.sweepHolderMail();
    expect(await mailsTo(inbox, email)).toHaveLength(0);

    clock.set('2026-12-02T10:00:00Z');
    await setUsage(database, key.id, 150, '2026-12');
    await server.sweepHolderMail();
    const at80 = await mailsTo(inbox, email);
    expect(at80.map((mail) => mail.subject)).toEqual([
      `Quote Retrieval Service: key ${key.prefix}... (${key.id}) has used 85% of its allowance`,
    ]);
    expect(at80[0]!.text).toContain('850 of 1,000 calls');
    expect(at80[0]!.text).toContain('this allowance is the last it has');
    // A trial has larger plans: the mail points at the holder's page to ask for one.
    expect(at80[0]!.text).toContain(
      `To move to a larger plan (starter, professional, platform, enterprise), ask for it on your account page: ${publicBaseUrl}/account`,
    );
    expect(at80[0]!.text).not.toMatch(/reply to this message|\d{4}-\d{2}-\d{2}T/i);

    await setUsage(database, key.id, 300, '2026-12');
    await server.sweepHolderMail();
    await server.sweepHolderMail();
    const mails = await mailsTo(inbox, email);
    expect(mails.map((mail) => mail.subject)).toEqual([
      at80[0]!.subject,
      `Quote Retrieval Service: key ${key.prefix}... (${key.id}) has used all of its allowance`,
    ]);
    expect(mails[1]!.text).toContain('1,000 of 1,000 calls');
  });
});
