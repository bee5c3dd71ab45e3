import LinkifyIt from 'linkify-it';
import { describe, expect, it } from 'vitest';
import { AccountClient, insertPendingRequests, mailTo, newMailTo } from '@quotes/server/testing';
import { mailingCli } from '../support/mailingCli.js';
import { expectOneLineError } from '../support/adminProcess.js';

// Words stay in their audience: what a holder reads of the operator's decision is a category
// from the fixed list, never the operator's words; what the operator reads of a stranger in a
// mail links nowhere; the status a mail names is the one the API answers. Real PostgreSQL,
// real HTTP, every message through a real SMTP server.
const kit = mailingCli({ operatorEmail: 'operator@quotes.example.test' });
const { admin } = kit;

const operatorsWords = 'internal: fraud ticket 4411, reseller suspected';
const allowedCategories =
  'terms-bulk-harvest, terms-competing-service, terms-shared-key, terms-rotating-trials, abuse, requested-by-holder, non-payment, key-closed, request-unusable, other';

describe('a revocation as its holder reads it, on the page and in the mail', { timeout: 120_000 }, () => {
  it("shows the category the operator chose and never the operator's words; the mail names the API's own status", async () => {
    const email = 'rotator@example.com';
    const key = await kit.server.operator.createKey({ client: 'Rotating app', plan: 'starter', email });
    const revoked = await admin(
      'keys',
      'revoke',
      key.id,
      '--category',
      'terms-rotating-trials',
      '--reason',
      operatorsWords,
    );
    expect(revoked.code, revoked.stderr).toBe(0);

    const holder = new AccountClient(kit.server.url);
    await holder.signIn(kit.inbox, email);
    for (const path of ['/account', `/account/keys/${key.id}`]) {
      const page = await holder.get(path);
      expect(page.status).toBe(200);
      expect(page.text).toContain('closed (terms: rotating trial accounts)');
      for (const word of ['fraud', '4411', 'reseller']) expect(page.text).not.toContain(word);
    }

    const before = kit.inbox.messages.length;
    await kit.server.sweepHolderMail();
    const mail = await newMailTo(kit.inbox, before, email, /is revoked$/);
    const answer = await fetch(`${kit.server.url}/v1/quotes-random`, { headers: { 'X-API-Key': key.key } });
    const problem = (await answer.json()) as { type: string };
    expect(problem.type).toBe('urn:quotes:problem:revoked-api-key');
    expect(mail.text).toContain(`From then on its calls are refused with ${answer.status} (revoked-api-key).`);
    expect(mail.text).toContain('The reason recorded: terms: rotating trial accounts.');
    for (const part of [mail.text ?? '', String(mail.html)])
      for (const word of ['fraud', '4411', 'reseller']) expect(part).not.toContain(word);

    // The operator still reads their own words.
    expect((await admin('keys', 'show', key.id)).stdout).toContain(
      `(category terms-rotating-trials: ${operatorsWords})`,
    );
  });

  it('refuses a revocation without a category from the list, in one line naming the list', async () => {
    const key = await kit.server.operator.createKey({ client: 'Kept app', plan: 'starter' });
    const unknown = await admin('keys', 'revoke', key.id, '--category', 'fraud', '--reason', operatorsWords);
    expectOneLineError(
      unknown,
      new RegExp(`^quotes-admin: --category must be one of ${allowedCategories}, got "fraud"$`),
    );
    expect(unknown.code).toBe(2);
    const missing = await admin('keys', 'revoke', key.id, '--reason', operatorsWords);
    expectOneLineError(missing, new RegExp(`^quotes-admin: --category must be one of ${allowedCategories}$`));
    expect((await kit.server.operator.showKey(key.id)).state).toBe('active');
  });
});

describe("the operator's digest of strangers' requests", { timeout: 120_000 }, () => {
  it('carries their text inert: no link a mail client makes, no markup', async () => {
    await insertPendingRequests(kit.database, ['r_phish0000001'], { plan: 'professional', network: '127.61.0' });
    await kit.database.db
      .updateTable('key_requests')
      .set({
        name: '<b>Eve</b> http://evil.test/phish',
        application: 'www.evil.test <a href="https://evil.test/win">claim</a>',
        email: 'eve@evil.test',
      })
      .where('id', '=', 'r_phish0000001')
      .execute();
    const sent = await admin('requests', 'digest', '--send');
    expect(sent.code, sent.stderr).toBe(0);
    const mail = await mailTo(kit.inbox, 'operator@quotes.example.test', /key requests? waiting$/);
    const linkify = new LinkifyIt();
    expect(linkify.match(mail.text ?? '')).toBeNull();
    expect(mail.text).toContain('<b>Eve</b> hxxp[:]//evil[.]test/phish <eve@evil[.]test>');
    const html = String(mail.html);
    expect(html).not.toMatch(/<a |<b>/);
    expect(linkify.match(html.replace(/<[^>]+>/g, ' '))).toBeNull();
  });
});
