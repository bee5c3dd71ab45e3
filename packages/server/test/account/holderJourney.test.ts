import { createTestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/index.js';
import type { RunningServer } from '../../src/startServer.js';
import { AccountClient, csrfIn, newMailTo } from '../../testing/accountClient.js';
import { type HolderTestServer, startHolderServer } from '../../testing/holderServer.js';
import { confirmationLinkIn, keyIn, mailTo, post, requestBody, tokenOfLink } from '../../testing/keyRequestClient.js';
import type { SmtpInbox } from '../../testing/smtpInbox.js';
import { testConfig } from '../../testing/testConfig.js';
import { capturedLogger, manualClock } from '../../testing/testServer.js';

const time = manualClock('2026-11-27T10:00:00Z');

// A developer's way from a trial key to their page and a safe roll, on a real server, a real
// PostgreSQL and a real SMTP server.
describe("a holder's journey", { timeout: 120_000 }, () => {
  let holders: HolderTestServer;
  let inbox: SmtpInbox;
  let server: RunningServer;

  beforeAll(async () => {
    holders = await startHolderServer({ clock: time.clock });
    ({ inbox, server } = holders);
  });

  afterAll(() => holders?.close());

  const page = async (path: string) => {
    const answer = await fetch(`${server.url}${path}`);
    return { status: answer.status, text: await answer.text() };
  };
  const call = async (key: string) =>
    (await fetch(`${server.url}/v1/quotes-random`, { headers: { 'X-API-Key': key } })).status;

  it('leads to /account from every public page and the reference page', async () => {
    for (const path of ['/keys/request', '/terms', '/account', '/keys/confirm?token=unknown']) {
      const shown = await page(path);
      expect(shown.text, path).toContain('<a href="/account">Your keys</a>');
    }
    // The reference page's intro is the contract's description, which Scalar renders from here.
    expect((await page('/docs/reference.json')).text).toContain('[`/account`](/account)');
  });

  it("mails a trial key as HTML and text from the configured sender, pointing at the holder's page", async () => {
    const email = 'dev@example.org';
    const asked = await post(`${server.url}/keys/requests`, requestBody({ email }), { localAddress: '127.7.0.1' });
    expect(asked.status).toBe(202);
    const link = confirmationLinkIn(await mailTo(inbox, email, /^Confirm your request/))!;
    const confirmed = await post(
      `${server.url}/keys/confirm`,
      new URLSearchParams({ token: tokenOfLink(link) }).toString(),
      { contentType: 'application/x-www-form-urlencoded', localAddress: '127.7.0.1' },
    );
    expect(confirmed.text).toContain('<a href="/account">your keys\' page</a>');
    expect(confirmed.text).toContain('<a href="/account">Your keys</a>');
    const mail = await mailTo(inbox, email, /API key \(trial plan\)/);
    const key = keyIn(mail)!;
    const id = /\((k_[A-Za-z0-9]+)\)/.exec(mail.text ?? '')![1]!;
    expect(mail.from?.value[0]?.address).toBe('keys@quotes.example.test');
    // The text twin: the key, its page, the roll in place of "reply", a trial's own period.
    expect(mail.text).toContain(`  ${key}\n`);
    expect(mail.text).toContain(`Your keys' page (their calls, roll, close): ${server.url}/account\n`);
    expect(mail.text).toContain(`If it leaks, roll it "at once" on its page:\n  ${server.url}/account/keys/${id}`);
    expect(mail.text).toContain(`Your usage over the key's 30 days: GET ${server.url}/v1/quotes-usage (free)`);
    expect(mail.text).not.toContain('this month');
    expect(mail.text).not.toContain('reply to this message');
    // The HTML: links, the key in a fixed-width face, the plan in a table.
    const html = String(mail.html);
    expect(html).toContain(`<a href="${server.url}/account">${server.url}/account</a>`);
    expect(html).toContain(`<a href="${server.url}/account/keys/${id}">`);
    expect(html).toMatch(new RegExp(`<code id="key" style="font-family: ui-monospace[^"]*">${key}</code>`));
    expect(html).toContain('<table role="presentation"');
    expect(html).toMatch(new RegExp(`>Key</th><td valign="top" style="padding: 2px 0">[^<]+ \\(${id}\\)</td>`));
    expect(await call(key)).toBe(200);
  });

  it('keeps a running grace when the key is rolled again, shows it, and mails every roll', async () => {
    const email = 'roller@example.com';
    const key = await server.operator.createKey({ client: 'Roller app', plan: 'starter', email });
    const client = new AccountClient(server.url);
    await client.signIn(inbox, email);
    const first = await client.get(`/account/keys/${key.id}`);
    // Named by client and id, which no roll changes; no grace chosen for the holder.
    expect(first.text).toContain(`<title>Key Roller app (${key.id}): Quote Retrieval Service</title>`);
    expect(first.text).toContain('<input type="radio" name="grace" value="at-once" required>');
    expect(first.text).not.toMatch(/name="grace"[^>]*checked/);
    const csrf = csrfIn(first.text);

    const unchosen = await client.post(`/account/keys/${key.id}/roll`, { _csrf: csrf });
    expect(unchosen.status).toBe(400);
    expect(unchosen.text).toContain(
      'choose when the old secret stops working: at once, after 1 hour or after 24 hours',
    );

    // Roll with 1 hour at 10:00: the first secret is promised until 11:00.
    let before = inbox.messages.length;
    const hour = await client.post(`/account/keys/${key.id}/roll`, { _csrf: csrf, grace: '1-hour' });
    expect(hour.status).toBe(200);
    expect(hour.text).toContain('The secret it replaced keeps working until 2026-11-27T11:00:00Z, then is refused.');
    const second = /id="new-key">(qk_[A-Za-z0-9]+)</.exec(hour.text)![1]!;
    const hourMail = await newMailTo(inbox, before, email, /has a new secret/);
    expect(hourMail.subject).toBe(`Quote Retrieval Service: key Roller app (${key.id}) has a new secret`);
    // Mails give instants in words (the page keeps the instant, in a <time>).
    expect(hourMail.text).toContain(
      'The secret it replaced keeps working until 11:00 UTC on 27 November 2026 (the grace chosen)',
    );
    expect(hourMail.text).toContain(`${server.url}/account/keys/${key.id}`);
    expect(hourMail.text).not.toContain(second);

    const shown = await client.get(`/account/keys/${key.id}`);
    expect(shown.text).toContain('The secret before this one still works until 2026-11-27T11:00:00Z.');

    // A roll with 24 hours now would cut or stretch that promise: refused in words, nothing changes.
    time.advance(10 * 60_000);
    const longer = await client.post(`/account/keys/${key.id}/roll`, { _csrf: csrf, grace: '24-hours' });
    expect(longer.status).toBe(409);
    expect(longer.text).toContain('the secret before this one still works until 2026-11-27T11:00:00Z (its grace)');
    expect(await call(key.key)).toBe(200);
    expect(await call(second)).toBe(200);

    // "At once" ends the current secret and keeps the first until its own end.
    before = inbox.messages.length;
    const now = await client.post(`/account/keys/${key.id}/roll`, { _csrf: csrf, grace: 'at-once' });
    expect(now.status).toBe(200);
    expect(now.text).toContain(
      'The secret it replaced is refused from now on; the one before it keeps working until 2026-11-27T11:00:00Z, the end of its grace.',
    );
    const third = /id="new-key">(qk_[A-Za-z0-9]+)</.exec(now.text)![1]!;
    const nowMail = await newMailTo(inbox, before, email, /has a new secret/);
    expect(nowMail.text).toContain(
      'The secret before that one keeps working until 11:00 UTC on 27 November 2026, the end of the grace it was given',
    );
    expect(await call(second)).toBe(401);
    expect(await call(key.key)).toBe(200);
    expect(await call(third)).toBe(200);
    time.advance(50 * 60_000);
    expect(await call(key.key)).toBe(401);
    expect(await call(third)).toBe(200);
    // The grace over, a roll with a grace is taken again (in a new session: the last ended unused).
    await client.signIn(inbox, email);
    const fresh = csrfIn((await client.get(`/account/keys/${key.id}`)).text);
    const again = await client.post(`/account/keys/${key.id}/roll`, { _csrf: fresh, grace: '24-hours' });
    expect(again.status).toBe(200);
  });
  it('lists a closed key last without allowance figures, says what each action did, and names every bad origin', async () => {
    const email = 'closer@example.com';
    const first = await server.operator.createKey({ client: 'First app', plan: 'starter', email });
    const second = await server.operator.createKey({ client: 'Second app', plan: 'starter', email });
    const client = new AccountClient(server.url);
    await client.signIn(inbox, email);
    const csrf = csrfIn((await client.get(`/account/keys/${first.id}`)).text);

    const off = await client.post(`/account/keys/${first.id}/alerts`, { _csrf: csrf, mails: 'off' });
    expect(off.status).toBe(303);
    expect((await client.get(off.headers.get('location')!)).text).toContain(
      '<p class="notice">Allowance mails are off: no mail comes as the key nears or reaches its allowance.</p>',
    );
    const origins = await client.post(`/account/keys/${first.id}/origins`, {
      _csrf: csrf,
      origins: 'https://good.example\nftp://one.example\nhttps://two.example/path\nhttps://three.example:0',
    });
    expect(origins.status).toBe(400);
    expect(origins.text).toContain(
      '3 entries are not origins (give scheme://host[:port] (http or https, a valid host, no path), or scheme://host:* for any port): &quot;ftp://one.example&quot; is not an origin; &quot;https://two.example/path&quot; is not an origin; &quot;https://three.example:0&quot; has a port outside 1-65535',
    );
    const closed = await client.post(`/account/keys/${first.id}/close`, { _csrf: csrf, confirm: 'yes' });
    expect(closed.status).toBe(303);
    const keyPage = (await client.get(closed.headers.get('location')!)).text;
    expect(keyPage).toContain('<p class="notice">The key is closed: its calls are refused from now on.</p>');
    expect(keyPage).not.toContain('left of');

    const list = (await client.get('/account')).text;
    const sections = [...list.matchAll(/<section class="key" data-key="(k_[A-Za-z0-9]+)">([\s\S]*?)<\/section>/g)];
    expect(sections.map((section) => section[1])).toEqual([second.id, first.id]);
    expect(sections[0]![2]).toContain('0 used, 10,000 left of 10,000');
    expect(sections[1]![2]).not.toContain('left of');
    expect(sections[1]![2]).not.toContain('Resets at');
    expect(sections[1]![2]).toContain(`<h2><a href="/account/keys/${first.id}">First app (${first.id})</a></h2>`);
  });
});

describe('the sender at start-up', () => {
  it('warns in the log while MAIL_FROM is the default, and not once it is set', async () => {
    const database = await createTestDatabase();
    try {
      // One server after the other, each with a log of its own: started side by side on one
      // database, a start waited on the other's past the test's deadline on a busy machine.
      const cases = [
        [{}, true],
        [{ MAIL_FROM: 'Quotes <keys@quotes.example.com>' }, false],
      ] as const;
      const logs: string[][] = [];
      for (const [env] of cases) {
        const logged = capturedLogger();
        const server = await startServer({ config: testConfig(env), database, logger: logged.logger });
        await server.close();
        logs.push(logged.lines);
      }
      for (const [index, [env, warned]] of cases.entries())
        expect(
          logs[index]!.some((line) => line.includes('MAIL_FROM is the default')),
          JSON.stringify(env),
        ).toBe(warned);
    } finally {
      await database.drop();
    }
  });
});
