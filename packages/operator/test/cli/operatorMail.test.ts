import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '@quotes/accounts';
import { type AdminCli, buildAdminCli, expectOneLineError, keysCreate } from '../support/adminProcess.js';
import { type SmtpInbox, startSmtpInbox } from '@quotes/server/testing';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

// Mail through a real SMTP server started here, sent by the CLI in its own process.
let cli: AdminCli;
let database: TestDatabase;
let inbox: SmtpInbox;
let dataDir: string;

beforeAll(async () => {
  [cli, database, inbox] = await Promise.all([buildAdminCli(), createTestDatabase(), startSmtpInbox()]);
  dataDir = await mkdtemp(join(tmpdir(), 'quotes-outbox-test-'));
});
afterAll(async () => {
  await inbox?.close();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const baseUrl = 'https://quotes.example.test';
const viaSmtp = (...args: string[]) =>
  cli.run(
    {
      DATABASE_URL: database.url,
      SMTP_URL: inbox.url,
      MAIL_FROM: 'Keys <keys@quotes.example.test>',
      PUBLIC_BASE_URL: baseUrl,
    },
    ...args,
  );
const toOutbox = (...args: string[]) =>
  cli.run({ DATABASE_URL: database.url, DATA_DIR: dataDir, SMTP_URL: '', PUBLIC_BASE_URL: baseUrl }, ...args);

const keyIn = (text: string) => /qk_[A-Za-z0-9]{24}/.exec(text)?.[0];

async function storedHash(id: string): Promise<Buffer> {
  return (await database.db.selectFrom('api_keys').select('key_hash').where('id', '=', id).executeTakeFirstOrThrow())
    .key_hash;
}

// One after another: they read the one inbox in order.
describe('mail from the operator CLI', { timeout: 90_000 }, () => {
  it('keys create --send mails the key with its plan, limits, expiry and the reference page', async () => {
    const created = await viaSmtp(
      ...keysCreate('Lanternfish Books', 'starter'),
      '--email',
      'ops@lanternfish.example',
      '--send',
    );
    expect(created.code, created.stderr).toBe(0);
    const [mail] = await inbox.waitFor(1);
    expect(mail!.to).toMatchObject({ text: 'ops@lanternfish.example' });
    expect(mail!.from?.value).toEqual([{ name: 'Keys', address: 'keys@quotes.example.test' }]);
    expect(mail!.subject).toBe('Your Quote Retrieval Service API key (starter plan)');
    const text = mail!.text ?? '';
    const key = keyIn(text);
    expect(key).toBeDefined();
    expect(text).toMatch(/Plan:\s+starter/);
    expect(text).toMatch(/Allowance:\s+10,000 calls a month \(UTC calendar months\)/);
    expect(text).toMatch(/Filters per call:\s+2 \(faith filter not included\)/);
    expect(text).toMatch(/Largest page:\s+25 quotes/);
    expect(text).toMatch(/Valid until:\s+no expiry/);
    expect(text).toContain(`${baseUrl}/docs`);
    // The mailed secret is the stored key; the operator's terminal never saw it.
    const id = /key (k_[A-Za-z0-9]+)/.exec(created.stdout)![1]!;
    expect(await storedHash(id)).toEqual(hashApiKey(key!));
    expect(keyIn(created.stdout)).toBeUndefined();
    expect(created.stdout).toContain('Mailed ops@lanternfish.example');

    // A trial's expiry is in its mail; a rolled key arrives as a new secret for the same id.
    const rolled = await viaSmtp('keys', 'roll', id, '--send');
    expect(rolled.code, rolled.stderr).toBe(0);
    const second = (await inbox.waitFor(2))[1]!;
    expect(second.subject).toBe('Your new Quote Retrieval Service API key (starter plan)');
    const newKey = keyIn(second.text ?? '');
    expect(newKey).toBeDefined();
    expect(newKey).not.toBe(key);
    expect(second.text).toContain(`${id}`);
    expect(await storedHash(id)).toEqual(hashApiKey(newKey!));
  });

  it('notify terms mails every owner of an active key once; --dry-run lists them and sends nothing', async () => {
    const before = inbox.messages.length;
    const owner = async (client: string, email: string, plan = 'professional') => {
      const run = await viaSmtp(...keysCreate(client, plan), '--email', email, '--json');
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { id: string };
    };
    await owner('Terms A', 'terms.a@example.test');
    await owner('Terms A second', 'Terms.A+other@example.test');
    await owner('Terms B', 'terms.b@example.test');
    const revoked = await owner('Terms C', 'terms.c@example.test');
    expect((await viaSmtp('keys', 'revoke', '--category', 'other', revoked.id)).code).toBe(0);
    const expired = await owner('Terms D', 'terms.d@example.test');
    await database.db
      .updateTable('api_keys')
      .set({ expires_at: new Date('2021-01-01T00:00:00Z') })
      .where('id', '=', expired.id)
      .execute();
    const file = join(dataDir, 'terms.txt');
    await writeFile(file, 'Our terms change on 1 January.\nNothing else changes.\n');

    const dry = await viaSmtp('notify', 'terms', '--subject', 'Changes to our terms', '--file', file, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    // One line for both of A's addresses (the one given last is mailed).
    expect(dry.stdout.split('\n').filter((line) => /terms\.a/i.test(line))).toHaveLength(1);
    expect(dry.stdout).toContain('terms.b@example.test');
    expect(dry.stdout).not.toContain('terms.c@');
    expect(dry.stdout).not.toContain('terms.d@');
    expect(inbox.messages.length).toBe(before);

    const sent = await viaSmtp('notify', 'terms', '--subject', 'Changes to our terms', '--file', file);
    expect(sent.code, sent.stderr).toBe(0);
    // Every address holding an active key, once; the earlier test's owner included.
    const expected = dry.stdout.split('\n').filter((line) => line.includes('@')).length;
    expect(expected).toBe(3);
    const mails = (await inbox.waitFor(before + expected)).slice(before);
    const recipients = mails.map((mail) => String((mail.to as { text: string }).text).toLowerCase());
    expect(new Set(recipients).size).toBe(expected);
    expect(recipients.filter((to) => to.startsWith('terms.a'))).toHaveLength(1);
    expect(recipients).toContain('terms.b@example.test');
    for (const mail of mails) {
      expect(mail.subject).toBe('Changes to our terms');
      expect(mail.text).toContain('Our terms change on 1 January.');
    }
  });

  it('usage alerts --send mails each owner once per threshold and month', async () => {
    const create = async (client: string, email: string) =>
      JSON.parse((await viaSmtp(...keysCreate(client, 'starter'), '--email', email, '--json')).stdout) as {
        id: string;
        key: string;
      };
    const near = await create('Alert near', 'near@example.test');
    const over = await create('Alert over', 'over@example.test');
    const month = new Date().toISOString().slice(0, 7);
    await database.db
      .insertInto('monthly_usage')
      .values([
        { key_id: near.id, month: `${month}-01`, calls: 8_500 },
        { key_id: over.id, month: `${month}-01`, calls: 10_000 },
      ])
      .execute();

    const listed = await viaSmtp('usage', 'alerts');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(`${near.id} +${near.key.slice(0, 11)} .*near@example\\.test.*85%\\s+80%\\s+no`),
    );
    expect(listed.stdout).toMatch(new RegExp(`${over.id}.*over@example\\.test.*100%\\s+100%\\s+no`));

    const before = inbox.messages.length;
    const sent = await viaSmtp('usage', 'alerts', '--send');
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toContain('2 alerts sent.');
    const mails = (await inbox.waitFor(before + 2)).slice(before);
    // Named as the customer knows the key (the start of their secret), with the id to quote back.
    const named = (key: { id: string; key: string }) => `${key.key.slice(0, 11)}... (${key.id})`;
    expect(mails.map((mail) => mail.subject).sort()).toEqual(
      [
        `Quote Retrieval Service: key ${named(near)} has used 85% of its allowance`,
        `Quote Retrieval Service: key ${named(over)} has used all of its allowance`,
      ].sort(),
    );
    const nearMail = mails.find((mail) => mail.subject?.includes(near.id));
    expect(nearMail?.text).toContain(`Your API key ${named(near)}, for Alert near on the starter plan, has used 85%`);
    // The period in words: from the first of this month, 00:00 UTC.
    const first = new Date(`${month}-01T00:00:00Z`);
    const monthName = first.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' });
    expect(nearMail?.text).toContain(`from 00:00 UTC on 1 ${monthName} ${first.getUTCFullYear()} until`);

    const again = await viaSmtp('usage', 'alerts', '--send');
    expect(again.stdout).toContain('0 alerts sent.');
    // The near key crossing 100% is a new threshold: one more mail, then none.
    await database.db.updateTable('monthly_usage').set({ calls: 10_000 }).where('key_id', '=', near.id).execute();
    expect((await viaSmtp('usage', 'alerts', '--send')).stdout).toContain('1 alert sent.');
    expect((await viaSmtp('usage', 'alerts', '--send')).stdout).toContain('0 alerts sent.');
    await inbox.waitFor(before + 3);
    expect(inbox.messages.length).toBe(before + 3);
  });

  it('a date-only expiry reads as the end of that day, UTC, in the mail', async () => {
    const before = inbox.messages.length;
    const created = await viaSmtp(
      ...keysCreate('Dated Ltd', 'starter'),
      '--email',
      'dated@example.test',
      '--expires-at',
      '2099-06-30',
      '--send',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('valid until 2099-06-30T23:59:59Z (end of that day, UTC)');
    const [mail] = (await inbox.waitFor(before + 1)).slice(before);
    expect(mail!.text).toMatch(/Valid until:\s+2099-06-30T23:59:59Z \(end of that day, UTC\)\n/);
  });

  it('without SMTP_URL writes .eml files to the outbox and says where', async () => {
    const created = await toOutbox(...keysCreate('Outbox Ltd', 'trial'), '--email', 'dev@outbox.example', '--send');
    expect(created.code, created.stderr).toBe(0);
    const path = /to (\S+\.eml)$/m.exec(created.stdout)?.[1];
    expect(path, created.stdout).toBeDefined();
    expect(path!.startsWith(join(dataDir, 'outbox'))).toBe(true);
    expect((await stat(path!)).mode & 0o777).toBe(0o600);
    const mail = await simpleParser(await readFile(path!));
    expect(mail.subject).toBe('Your Quote Retrieval Service API key (trial plan)');
    expect(mail.text).toMatch(/Allowance:\s+1,000 calls over its 30 days\n/);
    expect(mail.text).toMatch(/Valid until:\s+\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/);
    expect(keyIn(mail.text ?? '')).toBeDefined();
  });

  it('a mail server that refuses: one line, non-zero exit, and the key is still printed once', async () => {
    const { freePort } = await import('@quotes/database');
    const closed = `smtp://127.0.0.1:${await freePort()}`;
    const run = await cli.run(
      { DATABASE_URL: database.url, SMTP_URL: closed, PUBLIC_BASE_URL: baseUrl },
      ...keysCreate('Unlucky', 'starter'),
      '--email',
      'unlucky@example.test',
      '--send',
    );
    expectOneLineError(run, /mail to unlucky@example\.test failed/);
    expect(keyIn(run.stdout)).toBeDefined();
  });

  it('--send without an address is refused before a key is made', async () => {
    const before = await database.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expectOneLineError(await viaSmtp(...keysCreate('Nobody', 'starter'), '--send'), /--send needs --email/);
    const after = await database.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(after).toEqual(before);
  });
});
