import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { manualClock } from '../../testing/testServer.js';
import { callsWith, holderMailDatabase, mailingServer, mailsTo } from './holderMailFixture.js';

// The call that takes an allowance to 80% or 100% has its holder mailed within seconds, not at the
// next periodic sweep (an hour away here); the calls between thresholds sweep nothing.

const clock = manualClock('2026-11-20T10:00:00Z');
const hourMs = 3_600_000;
let database: TestDatabase;
let inbox: SmtpInbox;
let server: RunningServer;

beforeAll(async () => {
  database = await holderMailDatabase();
  inbox = await startSmtpInbox();
  server = await mailingServer(database, clock, inbox.url, undefined, 5000, hourMs);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await inbox?.close();
  await database?.drop();
});

/** The subjects mailed to `address`, once `count` have arrived or `withinMs` have passed. */
async function subjectsOnceThere(address: string, count: number, withinMs = 10_000): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const mails = await mailsTo(inbox, address);
    if (mails.length >= count || Date.now() > deadline) return mails.map((mail) => mail.subject ?? '');
  }
}

describe('mail to a key holder at a threshold', { timeout: 60_000 }, () => {
  it('goes out within seconds of the call that reached 80%, and of the one that reached 100%', async () => {
    const email = 'pam@example.com';
    const key = await server.operator.createKey({ client: 'Prompt', plan: 'enterprise', email, monthlyCalls: 10 });
    expect(await callsWith(key.key, 7, [server])).toEqual(Array(7).fill(200));
    // Three times the prompt sweep's delay: nothing is due below 80%.
    expect(await subjectsOnceThere(email, 1, 3000)).toEqual([]);
    expect(await callsWith(key.key, 1, [server])).toEqual([200]);
    expect(await subjectsOnceThere(email, 1)).toEqual([
      `Quote Retrieval Service: key ${key.prefix}... (${key.id}) has used 80% of its allowance`,
    ]);
    expect(await callsWith(key.key, 3, [server])).toEqual([200, 200, 429]);
    expect(await subjectsOnceThere(email, 2)).toEqual([
      `Quote Retrieval Service: key ${key.prefix}... (${key.id}) has used 80% of its allowance`,
      `Quote Retrieval Service: key ${key.prefix}... (${key.id}) has used all of its allowance`,
    ]);
  });
});
