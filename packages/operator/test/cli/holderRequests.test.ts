import { describe, expect, it } from 'vitest';
import { AccountClient, csrfIn, newMailTo } from '@quotes/server/testing';
import { mailingCli } from '../support/mailingCli.js';
import { expectOneLineError } from '../support/adminProcess.js';

// A key holder's plan change and renewal, asked on their page, decided through the CLI in its
// own process; every decision mailed through a real SMTP server.
const kit = mailingCli();
const { admin } = kit;

const dayMs = 86_400_000;

/** A holder signed in on their page with a key expiring in 10 days, who asks for `fields`: the request's id. */
async function asked(email: string, fields: Record<string, string>): Promise<{ keyId: string; requestId: string }> {
  const key = await kit.server.operator.createKey({
    client: `App of ${email}`,
    plan: 'starter',
    email,
    expiresAt: new Date(Date.now() + 10 * dayMs),
  });
  const client = new AccountClient(kit.server.url);
  await client.signIn(kit.inbox, email);
  const csrf = csrfIn((await client.get(`/account/keys/${key.id}`)).text);
  expect((await client.post(`/account/keys/${key.id}/requests`, { _csrf: csrf, ...fields })).status).toBe(303);
  const row = await kit.database.db
    .selectFrom('key_requests')
    .select('id')
    .where('for_key_id', '=', key.id)
    .executeTakeFirstOrThrow();
  return { keyId: key.id, requestId: row.id };
}

describe("quotes-admin requests with a holder's requests", { timeout: 120_000 }, () => {
  it('lists and shows a plan change with its key, approves it with --send, and mails the holder', async () => {
    const { keyId, requestId } = await asked('pia@example.com', {
      kind: 'plan-change',
      plan: 'professional',
      reason: 'A second application.',
    });
    const table = await admin('requests', 'list', '--status', 'pending');
    expect(table.stdout).toMatch(new RegExp(`${requestId}.*plan-change of ${keyId}`));
    const shown = await admin('requests', 'show', requestId);
    expect(shown.stdout).toMatch(new RegExp(`kind\\s+plan-change of ${keyId}`));
    expect(shown.stdout).toMatch(/use\s+A second application\./);
    const before = kit.inbox.messages.length;
    const approved = await admin('requests', 'approve', requestId, '--send');
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`Approved ${requestId} (plan-change): key ${keyId} is on the professional plan`);
    expect(approved.stdout).not.toMatch(/qk_/);
    expect((await kit.server.operator.showKey(keyId)).plan).toBe('professional');
    const mail = await newMailTo(kit.inbox, before, 'pia@example.com', /is approved$/);
    expect(mail.text).toContain('now on the professional plan');
    expectOneLineError(await admin('requests', 'approve', requestId), /is approved; only pending/);
  });

  it('approves a renewal a year past the expiry, and rejects another with the reason mailed', async () => {
    const renewal = await asked('quin@example.com', { kind: 'renewal', reason: 'Another year, please.' });
    const expiry = Date.parse((await kit.server.operator.showKey(renewal.keyId)).expiresAt!);
    const beforeRenewal = kit.inbox.messages.length;
    expect((await admin('requests', 'approve', renewal.requestId)).stdout).toMatch(/\(renewal\).*valid until/);
    // Mailed with no option: every decision reaches the holder unless the operator says --no-send.
    await newMailTo(kit.inbox, beforeRenewal, 'quin@example.com', /is approved$/);
    expect(Date.parse((await kit.server.operator.showKey(renewal.keyId)).expiresAt!)).toBe(expiry + 365 * dayMs);

    const refused = await asked('ray@example.com', { kind: 'renewal', reason: 'Longer please.' });
    const before = kit.inbox.messages.length;
    const rejected = await admin(
      'requests',
      'reject',
      refused.requestId,
      '--category',
      'non-payment',
      '--reason',
      'internal: card flagged by the bank',
    );
    expect(rejected.code, rejected.stderr).toBe(0);
    const mail = await newMailTo(kit.inbox, before, 'ray@example.com', /is not granted$/);
    expect(mail.text).toContain('The reason recorded: non-payment.');
    for (const part of [mail.text ?? '', String(mail.html)]) expect(part).not.toContain('card flagged');
    const audit = await kit.server.operator.auditTrail({ keyId: refused.keyId });
    expect(audit.map((entry) => entry.action)).toEqual(['keys create', 'requests renewal', 'requests reject']);
    // Read as sentences: the holder named by their address, never a hash; the operator by name.
    const table = (await admin('audit', 'list', '--key', refused.keyId)).stdout;
    expect(table).toContain(
      `The key's holder ray@example.com asked for a renewal of key ${refused.keyId} (request ${refused.requestId}). Reason: “Longer please.”.`,
    );
    expect(table).toMatch(
      new RegExp(
        `The operator \\S+ \\(command line\\) rejected request ${refused.requestId} \\(renewal\\) of key ${refused.keyId} \\(category: non-payment\\)\\. Reason: “internal: card flagged by the bank”\\.`,
      ),
    );
    expect(table).not.toMatch(/holder:[0-9a-f]{16}/);
  });
});
