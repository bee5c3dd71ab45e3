import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import {
  confirmationLinkIn,
  mailTo,
  post,
  requestBody,
  startServerMailingTo,
  tokenOfLink,
} from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { manualClock } from '../../testing/testServer.js';
import { pressConfirm, recipientsOf } from './confirmationLinks.js';

// Two servers on one database, a real SMTP server, one clock: the operator is told when requests
// start waiting, once for both servers, at most once per 15 minutes.
const operatorEmail = 'ops@quotes.example.test';
let database: TestDatabase;
let inbox: SmtpInbox;
let servers: RunningServer[];
const clock = manualClock('2026-11-29T09:00:00Z');

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  await loadFixtureCorpus(database);
  // OPERATOR_EMAIL is this test's subject: where the notice goes.
  servers = await Promise.all(
    [0, 1].map(() => startServerMailingTo(database, inbox, { clock: clock.clock, keyRequests: { operatorEmail } })),
  );
});
afterAll(async () => {
  await Promise.all((servers ?? []).map((server) => server.close()));
  await inbox?.close();
  await database?.drop();
});

const toOperator = () => inbox.messages.filter((mail) => recipientsOf(mail).includes(operatorEmail));

/** A starter key asked for and confirmed through server `at`: it waits for the operator. */
async function waitingRequest(email: string, from: string, at: RunningServer): Promise<void> {
  const answer = await post(`${at.url}/keys/requests`, requestBody({ email, plan: 'starter' }), { localAddress: from });
  expect(answer.status, answer.text).toBe(202);
  const link = confirmationLinkIn(await mailTo(inbox, email, /^Confirm your request/))!;
  expect((await pressConfirm(at.url, tokenOfLink(link), from)).status).toBe(200);
  await mailTo(inbox, email, /is with the operator/);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the operator is told that requests wait', { timeout: 60_000 }, () => {
  it('mails OPERATOR_EMAIL once when a request starts waiting, with the count and the console', async () => {
    await waitingRequest('ann@example.com', '127.21.0.1', servers[0]!);
    const notice = await mailTo(inbox, operatorEmail, /key request/);
    expect(notice.subject).toBe('Quote Retrieval Service: 1 key request waiting for you');
    expect(notice.text).toContain('1 key request waits for your decision.');
    expect(notice.text).toContain('http://127.0.0.1:4100/');
    expect(notice.text).toContain('npx quotes-admin console');
    // Nothing a stranger typed reaches the operator's mail.
    expect(notice.text).not.toContain('reading club');

    // A second request 1 minute later: no second mail within 15 minutes, from either server.
    clock.advance(60_000);
    await waitingRequest('bo@example.com', '127.22.0.1', servers[1]!);
    await pause(1500);
    await Promise.all(servers.map((server) => server.sweepHolderMail()));
    expect(toOperator()).toHaveLength(1);

    // 15 minutes after the first: both servers sweep at once, one mail counts both.
    clock.advance(14 * 60_000);
    const outcomes = await Promise.all(servers.map((server) => server.sweepHolderMail()));
    expect(outcomes.map((outcome) => outcome.waitingNoticed).sort()).toEqual([0, 2]);
    await inbox.waitFor(inbox.messages.length);
    expect(toOperator().map((mail) => mail.subject)).toEqual([
      'Quote Retrieval Service: 1 key request waiting for you',
      'Quote Retrieval Service: 2 key requests waiting for you',
    ]);

    // Nothing new waits: no mail however long after.
    clock.advance(60 * 60_000);
    await Promise.all(servers.map((server) => server.sweepHolderMail()));
    expect(toOperator()).toHaveLength(2);
  });
});
