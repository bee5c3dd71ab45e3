import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { mailingCli } from '../support/mailingCli.js';
import { expectOneLineError, runInProcess } from '../support/adminProcess.js';
import { confirmationLinkIn, keyIn, mailTo, post, requestBody, tokenOfLink } from '@quotes/server/testing';

// The operator's queue through the CLI in its own process, on the database a real server fills
// from the form, every message through a real SMTP server.
interface AuditRow {
  action: string;
  target: string;
  actor: string;
  before: unknown;
  after: unknown;
  reason: string | null;
}

const kit = mailingCli({ operatorEmail: 'operator@quotes.example.test' });
const { admin } = kit;

/** A confirmed request, left for the operator: its id. */
async function confirmedRequest(email: string, plan: string, from: string): Promise<string> {
  const asked = await post(
    `${kit.server.url}/keys/requests`,
    requestBody({ email, plan, application: `App of ${email}` }),
    {
      localAddress: from,
    },
  );
  expect(asked.status).toBe(202);
  const link = confirmationLinkIn(await mailTo(kit.inbox, email, /^Confirm your request/))!;
  await post(`${kit.server.url}/keys/confirm`, `token=${tokenOfLink(link)}`, {
    contentType: 'application/x-www-form-urlencoded',
    localAddress: from,
  });
  const row = await kit.database.db
    .selectFrom('key_requests')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('quotes-admin requests', { timeout: 120_000 }, () => {
  it('lists a starter request as pending with its reason, and approve (no option) mails a working key', async () => {
    const id = await confirmedRequest('sam@example.com', 'starter', '127.21.0.1');
    const listed = await admin('requests', 'list', '--status', 'pending', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        id,
        email: 'sam@example.com',
        plan: 'starter',
        status: 'pending',
        reasons: ['the starter plan is granted by the operator'],
      }),
    ]);
    const table = await admin('requests', 'list');
    expect(table.stdout).toMatch(/ID\s+EMAIL\s+CLIENT\s+APPLICATION\s+PLAN\s+STATUS\s+REASONS/);
    expect(table.stdout).toContain('the starter plan is granted by the operator');
    const shown = await admin('requests', 'show', id);
    expect(shown.stdout).toMatch(/status\s+pending/);

    // The person who asked is mailed on every decision unless the operator says --no-send.
    const approved = await admin('requests', 'approve', id);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(/Approved r_\w+: key k_\w+ .* on the starter plan/);
    // Mailed: the secret never reaches the operator's terminal.
    expect(approved.stdout).not.toMatch(/qk_/);
    const key = keyIn(await mailTo(kit.inbox, 'sam@example.com', /API key \(starter plan\)/))!;
    expect((await fetch(`${kit.server.url}/v1/quotes-random`, { headers: { 'X-API-Key': key } })).status).toBe(200);
    const again = await admin('requests', 'approve', id);
    expectOneLineError(again, /request r_\w+ is approved; only pending/);
    // In the audit: the key created and the request approved, by the OS user running the CLI.
    const keyId = /key (k_\w+)/.exec(approved.stdout)![1]!;
    const audit = JSON.parse((await admin('audit', 'list', '--key', keyId, '--json')).stdout) as AuditRow[];
    expect(audit.map((entry) => [entry.action, entry.target, entry.actor])).toEqual([
      ['keys create', keyId, `os:${userInfo().username}`],
      ['requests approve', id, `os:${userInfo().username}`],
    ]);
    expect(audit[1]!.after).toEqual({ status: 'approved', plan: 'starter', keyId });
    // And in words: no address turned into null, no JSON.
    const sentences = (await admin('audit', 'list', '--key', keyId)).stdout;
    expect(sentences).toContain(
      `The operator ${userInfo().username} (command line) approved request ${id}: key ${keyId} on the starter plan.`,
    );
    expect(sentences).not.toContain('->');
  });

  it('approve --send mails links to PUBLIC_BASE_URL, and without it refuses in one line before any key is made', async () => {
    const id = await confirmedRequest('pia@example.com', 'starter', '127.24.0.1');
    const { PUBLIC_BASE_URL: _unset, ...withoutAddress } = {
      DATABASE_URL: kit.database.url,
      SMTP_URL: kit.inbox.url,
      PUBLIC_BASE_URL: kit.server.url,
    };
    const refused = await runInProcess(withoutAddress, 'requests', 'approve', id, '--send');
    expectOneLineError(refused, /^quotes-admin: PUBLIC_BASE_URL is not set: mailed links need the address/);
    const row = await kit.database.db
      .selectFrom('key_requests')
      .select(['status', 'key_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'pending', key_id: null });
    expect(
      await kit.database.db.selectFrom('api_keys').select('id').where('email', '=', 'pia@example.com').execute(),
    ).toEqual([]);

    const approved = await admin('requests', 'approve', id, '--send');
    expect(approved.code, approved.stderr).toBe(0);
    const mail = await mailTo(kit.inbox, 'pia@example.com', /API key \(starter plan\)/);
    // The kit.server runs on a port of its own: every link in the mail is to it, none to a default address.
    const links = [...(mail.text ?? '').matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((match) => match[0]);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.startsWith(`${kit.server.url}/`)).toBe(true);
    // The confirmation, the receipt and the key: nothing went out on the refusal.
    expect(kit.inbox.messages.filter((message) => JSON.stringify(message.to).includes('pia@example.com'))).toHaveLength(
      3,
    );
  });

  it("rejects with a category, whose words are mailed; the operator's reason stays in the audit", async () => {
    const id = await confirmedRequest('rae@example.com', 'professional', '127.22.0.1');
    expectOneLineError(
      await admin('requests', 'reject', id, '--reason', 'We could not verify the application.'),
      /^quotes-admin: --category must be one of terms-bulk-harvest, terms-competing-service, .*, other$/,
    );
    const rejected = await admin(
      'requests',
      'reject',
      id,
      '--category',
      'other',
      '--reason',
      'We could not verify the application.',
    );
    expect(rejected.code, rejected.stderr).toBe(0);
    const mail = await mailTo(kit.inbox, 'rae@example.com', /^Your request for a Quote Retrieval Service API key$/);
    expect(mail.text).toContain('The reason recorded: other.');
    expect(mail.text).not.toContain('verify');
    const listed = JSON.parse((await admin('requests', 'list', '--status', 'rejected', '--json')).stdout);
    expect(listed).toEqual([
      expect.objectContaining({
        id,
        rejectionCategory: 'other',
        rejectionReason: 'We could not verify the application.',
      }),
    ]);
    const audit = JSON.parse((await admin('audit', 'list', '--json')).stdout) as AuditRow[];
    expect(audit.find((entry) => entry.target === id)).toMatchObject({
      action: 'requests reject',
      before: { status: 'pending', plan: 'professional' },
      after: { status: 'rejected', category: 'other' },
      reason: 'We could not verify the application.',
    });
  });

  it('mails nobody only when told --no-send: the key is printed once, the refusal unsent', async () => {
    const [given, refused] = [
      await confirmedRequest('ned@example.com', 'starter', '127.25.0.1'),
      await confirmedRequest('noa@example.com', 'starter', '127.26.0.1'),
    ];
    const before = kit.inbox.messages.length;
    const approved = await admin('requests', 'approve', given, '--no-send');
    expect(approved.code, approved.stderr).toBe(0);
    const key = /qk_[A-Za-z0-9]{24}/.exec(approved.stdout)![0];
    expect(approved.stdout).toContain('--no-send mailed nobody');
    expect((await fetch(`${kit.server.url}/v1/quotes-random`, { headers: { 'X-API-Key': key } })).status).toBe(200);
    const rejected = await admin('requests', 'reject', refused, '--category', 'abuse', '--no-send');
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.stdout).toBe(`Rejected ${refused} (noa@example.com).\nNobody was mailed (--no-send).\n`);
    // Given time to arrive, nothing did.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(kit.inbox.messages.length).toBe(before);
  });

  it('mails a digest of the pending requests to OPERATOR_EMAIL', async () => {
    const id = await confirmedRequest('ola@example.com', 'platform', '127.23.0.1');
    const digest = await admin('requests', 'digest', '--send');
    expect(digest.code, digest.stderr).toBe(0);
    expect(digest.stdout).toContain(id);
    const mail = await mailTo(kit.inbox, 'operator@quotes.example.test', /key request waiting/);
    expect(mail.text).toContain(id);
    expect(mail.text).toContain('the platform plan is granted by the operator');
  });

  it('says in one line what is wrong', async () => {
    expectOneLineError(await admin('requests', 'show', 'r_nope'), /no key request with id "r_nope"/);
    expect((await admin('requests', 'list', '--status', 'lost')).code).not.toBe(0);
  });
});
