import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowanceMailsOn, createMailer, setAllowanceMails, sweepHolderMail } from '@quotes/accounts';
import { instantInWords } from '@quotes/accounts/rules';
import { setUsage } from '@quotes/accounts/usage-override';
import type { TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { capturedLogger, manualClock } from '../../testing/testServer.js';
import {
  callsWith,
  holderMailDatabase,
  mailingServer,
  mailsTo,
  operatorEmail,
  publicBaseUrl,
  raceSweeps,
} from './holderMailFixture.js';

// The holder of a key hears of its allowance, its expiry and its revocation by mail, each once,
// from whichever of several servers sweeps first; real PostgreSQL, real HTTP, real SMTP.

const clock = manualClock('2026-11-20T10:00:00Z');
const dayMs = 86_400_000;
let database: TestDatabase;
let inbox: SmtpInbox;
let servers: RunningServer[];

beforeAll(async () => {
  database = await holderMailDatabase();
  inbox = await startSmtpInbox();
  servers = [await mailingServer(database, clock, inbox.url), await mailingServer(database, clock, inbox.url)];
}, 60_000);
afterAll(async () => {
  await Promise.all((servers ?? []).map((server) => server.close()));
  await inbox?.close();
  await database?.drop();
});

const createKey = (email: string, input: { monthlyCalls?: number; expiresAt?: Date } = {}) =>
  servers[0]!.operator.createKey({
    client: `App of ${email}`,
    plan: 'enterprise',
    email,
    ...(input.monthlyCalls === undefined ? { unlimited: true } : {}),
    ...input,
  });

describe('mail to a key holder', { timeout: 60_000 }, () => {
  it('mails 80% and 100% of an allowance of 10 once each, with two servers sweeping at once', async () => {
    const email = 'ann@example.com';
    const key = await createKey(email, { monthlyCalls: 10 });
    expect(await callsWith(key.key, 7, servers)).toEqual(Array(7).fill(200));
    await raceSweeps(servers);
    expect(await mailsTo(inbox, email)).toHaveLength(0);

    expect(await callsWith(key.key, 1, servers)).toEqual([200]);
    await raceSweeps(servers);
    await raceSweeps(servers);
    const at80 = await mailsTo(inbox, email);
    expect(at80.map((mail) => mail.subject)).toEqual([
      `Quote Retrieval Service: key ${key.prefix}... (${key.id}) has used 80% of its allowance`,
    ]);
    expect(at80[0]!.text).toContain('8 of 10 calls');
    // Dates in words; on enterprise, the largest plan, no upgrade to offer.
    expect(at80[0]!.text).toContain(
      'its allowance for the period from 00:00 UTC on 1 November 2026 until 00:00 UTC on 1 December 2026: 8 of 10 calls.',
    );
    expect(at80[0]!.text).toContain('The allowance resets at 00:00 UTC on 1 December 2026.');
    expect(at80[0]!.text).not.toMatch(/larger plan|reply to this message|\d{4}-\d{2}-\d{2}T/i);
    expect(at80[0]!.text).toContain(`${publicBaseUrl}/v1/quotes-usage`);
    expect(String(at80[0]!.html)).toContain(`${publicBaseUrl}/account`);

    expect(await callsWith(key.key, 3, servers)).toEqual([200, 200, 429]);
    await raceSweeps(servers);
    await raceSweeps(servers);
    const all = await mailsTo(inbox, email);
    expect(all).toHaveLength(2);
    expect(all[1]!.subject).toContain('has used all of its allowance');
    expect(all[1]!.text).toContain('10 of 10 calls');

    // The operator's list shows them sent; its --send finds nothing left to send.
    const alert = (await servers[0]!.operator.usageAlerts()).find((entry) => entry.keyId === key.id);
    expect(alert).toMatchObject({ threshold: 100, sent: true, mails: true });
    expect(await servers[1]!.operator.sendUsageAlerts(undefined, async () => undefined)).toEqual([]);
    expect(await mailsTo(inbox, email)).toHaveLength(2);
  });

  it('mails nothing of the allowance to a holder who turned the allowance mails off', async () => {
    const email = 'quiet@example.com';
    const key = await createKey(email, { monthlyCalls: 10 });
    expect(await allowanceMailsOn(database.db, key.id)).toBe(true);
    expect(await setAllowanceMails(database.db, key.id, false)).toBe(true);
    expect(await allowanceMailsOn(database.db, key.id)).toBe(false);
    expect(await setAllowanceMails(database.db, 'k_nosuchkey', false)).toBe(false);
    await callsWith(key.key, 10, servers);
    await raceSweeps(servers);
    expect(await mailsTo(inbox, email)).toHaveLength(0);
    const alert = (await servers[0]!.operator.usageAlerts()).find((entry) => entry.keyId === key.id);
    expect(alert).toMatchObject({ threshold: 100, sent: false, mails: false });
    expect(await servers[0]!.operator.sendUsageAlerts(undefined, async () => undefined)).toEqual([]);
  });

  it('mails once 7 days before a key expires', async () => {
    const email = 'expiring@example.com';
    const expiresAt = new Date(clock.clock().getTime() + 8 * dayMs);
    const key = await createKey(email, { expiresAt });
    await raceSweeps(servers);
    expect(await mailsTo(inbox, email)).toHaveLength(0);
    clock.advance(dayMs + 60_000);
    await raceSweeps(servers);
    await raceSweeps(servers);
    const mails = await mailsTo(inbox, email);
    expect(mails.map((mail) => mail.subject)).toEqual([
      `Quote Retrieval Service: key ${key.prefix}... (${key.id}) expires at ${instantInWords(expiresAt)}`,
    ]);
    expect(mails[0]!.text).toContain(`${publicBaseUrl}/account`);
    // The status the contract documents for an expired key's calls, not a number of the mail's own.
    expect(mails[0]!.text).toContain('From then on its calls are refused with 403 (expired-api-key).');
    clock.advance(dayMs);
    await raceSweeps(servers);
    expect(await mailsTo(inbox, email)).toHaveLength(1);
  });

  it("mails a revoked key's holder once, with the category the operator chose and the operator's address, never the operator's words", async () => {
    const email = 'revoked@example.com';
    const key = await createKey(email);
    await servers[0]!.operator.revokeKey(
      key.id,
      'Posted on a forum by Bob Stranger <bob@other.example>',
      'terms-shared-key',
    );
    await raceSweeps(servers);
    await raceSweeps(servers);
    const mails = await mailsTo(inbox, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Quote Retrieval Service: key ${key.prefix}... (${key.id}) is revoked`);
    expect(mails[0]!.text).toContain('The reason recorded: terms: a shared or published key.');
    expect(mails[0]!.text).toContain(operatorEmail);
    for (const part of [mails[0]!.text ?? '', String(mails[0]!.html)])
      for (const word of ['Bob', 'bob@other.example', 'forum']) expect(part).not.toContain(word);

    // Every key of an address revoked at once: each holder's key gets its own mail, with that category.
    const other = 'several@example.com';
    await createKey(other);
    await createKey(other);
    await servers[1]!.operator.revokeKeysOf({ email: other }, 'terms');
    await raceSweeps(servers);
    const both = await mailsTo(inbox, other);
    expect(both).toHaveLength(2);
    for (const mail of both) expect(mail.text).toContain('The reason recorded: other.');
  });
});

describe('mail to a key holder while the mail server is down', { timeout: 60_000 }, () => {
  it('keeps the notice and sends it once when the mail server is back', async () => {
    const down = await startSmtpInbox();
    const port = Number(new URL(down.url).port);
    await down.close();
    const log = capturedLogger();
    const server = await mailingServer(database, clock, `smtp://127.0.0.1:${port}`, log.logger);
    try {
      // The other servers are not sweeping here: this one alone meets the outage.
      const email = 'outage@example.com';
      const key = await server.operator.createKey({ client: 'Outage app', plan: 'starter', email });
      await server.operator.revokeKey(key.id, 'test');
      const failed = await server.sweepHolderMail();
      expect(failed).toMatchObject({ sent: 0, retrying: 1 });
      const notice = () =>
        sql<{ state: string; attempts: number }>`SELECT state, attempts FROM holder_notices WHERE key_id = ${key.id}`
          .execute(database.db)
          .then((result) => result.rows);
      expect(await notice()).toEqual([{ state: 'due', attempts: 1 }]);

      const back = await startSmtpInbox(port);
      try {
        // Not before its retry time; then once.
        expect(await server.sweepHolderMail()).toMatchObject({ sent: 0, retrying: 0 });
        clock.advance(61_000);
        expect(await server.sweepHolderMail()).toMatchObject({ sent: 1, retrying: 0 });
        expect(await server.sweepHolderMail()).toMatchObject({ sent: 0 });
        expect(await mailsTo(back, email)).toHaveLength(1);
        expect(await notice()).toEqual([{ state: 'sent', attempts: 2 }]);
        // The sweeps were logged, by their counts alone.
        expect(log.lines.join('')).toContain('holder mail sweep');
        expect(log.lines.join('')).not.toContain(email);
      } finally {
        await back.close();
      }
    } finally {
      await server.close();
    }
  });
});

describe('mail to many key holders with many senders at once', { timeout: 60_000 }, () => {
  it('sends each notice once when eight sweeps claim from the same 30 notices', async () => {
    const keys = await Promise.all(
      Array.from({ length: 30 }, (_, i) => createKey(`many${i}@example.com`, { monthlyCalls: 10 })),
    );
    const month = clock.clock().toISOString().slice(0, 7);
    for (const key of keys) await setUsage(database, key.id, 8, month);
    const mailers = Array.from({ length: 6 }, () =>
      createMailer({ smtpUrl: inbox.url, from: 'keys@quotes.example', outboxDir: tmpdir(), deadlineMs: 5000 }),
    );
    try {
      await Promise.all([
        ...servers.map((server) => server.sweepHolderMail()),
        ...mailers.map((mailer) => sweepHolderMail(database.db, { mailer, publicBaseUrl, clock: clock.clock })),
      ]);
    } finally {
      for (const mailer of mailers) mailer.close();
    }
    await mailsTo(inbox, 'nobody@example.com');
    for (const key of keys) {
      const mails = inbox.messages.filter((mail) => mail.subject?.includes(key.id));
      expect(mails.map((mail) => mail.subject)).toEqual([
        `Quote Retrieval Service: key ${key.prefix}... (${key.id}) has used 80% of its allowance`,
      ]);
    }
  });
});
