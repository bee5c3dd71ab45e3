import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorApi, type OperatorApi } from '@quotes/accounts';
import { type SmtpInbox, startSmtpInbox } from '@quotes/server/testing';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { type AdminCli, buildAdminCli, expectOneLineError } from '../support/adminProcess.js';

// `keys renew` and `keys change-plan` tell the key's holder, as the console does (the same
// function), through a real SMTP server; `--no-send` mails nobody.
let cli: AdminCli;
let database: TestDatabase;
let inbox: SmtpInbox;
let operator: OperatorApi;

beforeAll(async () => {
  [cli, database, inbox] = await Promise.all([buildAdminCli(), createTestDatabase(), startSmtpInbox()]);
  operator = createOperatorApi(database);
});
afterAll(async () => {
  await inbox?.close();
  await database?.drop();
});

const baseUrl = 'https://quotes.example.test';
const mailing = { SMTP_URL: '', MAIL_FROM: 'Keys <keys@quotes.example.test>', PUBLIC_BASE_URL: baseUrl };
const admin = (env: Record<string, string>, ...args: string[]) =>
  cli.run({ DATABASE_URL: database.url, ...mailing, SMTP_URL: inbox.url, ...env }, ...args);
// The last second of a day 60 days ahead: "the end of" that day in words.
const until = new Date(
  Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 60, 23, 59, 59),
);
const untilWords = `the end of ${until.getUTCDate()} ${until.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })} ${until.getUTCFullYear()} (UTC)`;

describe('keys renew and the holder', { timeout: 60_000 }, () => {
  it('mails the holder the new expiry by default, as the console does', async () => {
    const key = await operator.createKey({ client: 'Renewer', plan: 'starter', email: 'renewer@example.org' });
    const before = inbox.messages.length;
    const renewed = await admin({}, 'keys', 'renew', key.id, '--until', until.toISOString());
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(renewed.stdout).toMatch(/^Mailed renewer@example\.org \(message .+\)\.$/m);
    const [mail] = (await inbox.waitFor(before + 1)).slice(before);
    expect(mail!.to).toMatchObject({ text: 'renewer@example.org' });
    expect(mail!.subject).toBe(`Quote Retrieval Service: key ${key.prefix}... (${key.id}) is renewed`);
    expect(mail!.text).toContain(
      `The operator renewed your API key ${key.prefix}... (${key.id}), for Renewer, on the starter plan: it now works until ${untilWords}.`,
    );
    expect(String(mail!.html)).toContain(`<a href="${baseUrl}/account">${baseUrl}/account</a>`);
  });

  it('mails nobody with --no-send, and says so', async () => {
    const key = await operator.createKey({ client: 'Quiet Renewer', plan: 'starter', email: 'quiet@example.org' });
    const before = inbox.messages.length;
    const renewed = await admin({}, 'keys', 'renew', key.id, '--until', until.toISOString(), '--no-send');
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(renewed.stdout.trim().split('\n').at(-1)).toBe('The holder was not mailed (--no-send).');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(inbox.messages.length).toBe(before);
    expect(new Date((await operator.showKey(key.id)).expiresAt ?? '').getTime()).toBe(until.getTime());
  });

  it('refuses in one line, renewing nothing, when the mail could not link to the service', async () => {
    const key = await operator.createKey({ client: 'Unlinked', plan: 'starter', email: 'unlinked@example.org' });
    const { expiresAt } = await operator.showKey(key.id);
    const refused = await admin({ PUBLIC_BASE_URL: '' }, 'keys', 'renew', key.id, '--until', until.toISOString());
    expectOneLineError(refused, /PUBLIC_BASE_URL is not set/, expect);
    expect((await operator.showKey(key.id)).expiresAt).toBe(expiresAt);
  });

  it('says nobody was mailed when the key has no address', async () => {
    const key = await operator.createKey({ client: 'No Address', plan: 'starter' });
    const renewed = await admin({}, 'keys', 'renew', key.id, '--until', until.toISOString());
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(renewed.stdout.trim().split('\n').at(-1)).toBe('The key has no e-mail address: nobody was mailed.');
  });
});

describe('keys change-plan and the holder', { timeout: 60_000 }, () => {
  it('mails the holder the new plan by default, as the console does', async () => {
    const key = await operator.createKey({ client: 'Plan Mover', plan: 'starter', email: 'mover@example.org' });
    const before = inbox.messages.length;
    const moved = await admin({}, 'keys', 'change-plan', key.id, '--plan', 'professional');
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/^Mailed mover@example\.org \(message .+\)\.$/m);
    const [mail] = (await inbox.waitFor(before + 1)).slice(before);
    expect(mail!.to).toMatchObject({ text: 'mover@example.org' });
    expect(mail!.subject).toBe(
      `Quote Retrieval Service: key ${key.prefix}... (${key.id}) is now on the professional plan`,
    );
    expect(mail!.text).toContain(
      `The operator moved your API key ${key.prefix}... (${key.id}), for Plan Mover, from the starter plan to the professional plan: 50,000 calls a month, with no expiry.`,
    );
    expect(String(mail!.html)).toContain(`<a href="${baseUrl}/account">${baseUrl}/account</a>`);
    expect((await operator.showKey(key.id)).plan).toBe('professional');
  });

  it('mails nobody with --no-send, and says so', async () => {
    const key = await operator.createKey({ client: 'Quiet Mover', plan: 'starter', email: 'quiet@example.org' });
    const before = inbox.messages.length;
    const moved = await admin({}, 'keys', 'change-plan', key.id, '--plan', 'professional', '--no-send');
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout.trim().split('\n').at(-1)).toBe('The holder was not mailed (--no-send).');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(inbox.messages.length).toBe(before);
    expect((await operator.showKey(key.id)).plan).toBe('professional');
  });

  it('refuses in one line, changing nothing, when the mail could not link to the service', async () => {
    const key = await operator.createKey({ client: 'Unlinked', plan: 'starter', email: 'unlinked@example.org' });
    const refused = await admin({ PUBLIC_BASE_URL: '' }, 'keys', 'change-plan', key.id, '--plan', 'professional');
    expectOneLineError(refused, /PUBLIC_BASE_URL is not set/, expect);
    expect((await operator.showKey(key.id)).plan).toBe('starter');
  });

  it('says nobody was mailed when the key has no address', async () => {
    const key = await operator.createKey({ client: 'No Address', plan: 'starter' });
    const moved = await admin({}, 'keys', 'change-plan', key.id, '--plan', 'professional');
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout.trim().split('\n').at(-1)).toBe('The key has no e-mail address: nobody was mailed.');
  });
});
