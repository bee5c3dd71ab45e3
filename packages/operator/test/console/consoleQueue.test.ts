import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '@quotes/accounts';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '@quotes/server';
import {
  confirmationLinkIn,
  insertPendingRequests,
  keyIn,
  loadFixtureCorpus,
  mailTo,
  post as postForm,
  requestBody,
  type SmtpInbox,
  startServerMailingTo,
  startSmtpInbox,
  tokenOfLink,
} from '@quotes/server/testing';
import { keyRequestBounds, parseConfig } from '@quotes/service-base';
import { startConsole } from '../../src/console/consoleServer.js';
import { type AdminCli, buildAdminCli } from '../support/adminProcess.js';
import { type ConsoleProcess, startConsoleProcess } from '../support/consoleProcess.js';

// The operator's queue in the console: `quotes-admin console` in its own process over the
// database a real server fills from the form, every message through a real SMTP server.
let cli: AdminCli;
let database: TestDatabase;
let inbox: SmtpInbox;
let server: RunningServer;
let console_: ConsoleProcess;

interface Browser {
  cookie: string;
  csrf: string;
}
let first: Browser;

async function signIn(link: string): Promise<Browser | number> {
  const answer = await fetch(link, { redirect: 'manual' });
  if (answer.status !== 303) return answer.status;
  const cookie = answer.headers.getSetCookie()[0]!.split(';')[0]!;
  const page = await fetch(`${console_.url}/`, { headers: { cookie } });
  return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]! };
}

async function get(browser: Browser, path: string): Promise<{ status: number; body: string }> {
  const answer = await fetch(`${console_.url}${path}`, { headers: { cookie: browser.cookie }, redirect: 'manual' });
  return { status: answer.status, body: await answer.text() };
}

async function post(
  browser: Browser,
  path: string,
  form: Record<string, string>,
  withCsrf = true,
): Promise<{ status: number; body: string; location: string | null }> {
  const answer = await fetch(`${console_.url}${path}`, {
    method: 'POST',
    headers: { cookie: browser.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(withCsrf ? { ...form, _csrf: browser.csrf } : form),
    redirect: 'manual',
  });
  return { status: answer.status, body: await answer.text(), location: answer.headers.get('location') };
}

const alertOf = (body: string) =>
  /<p class="notice error" role="alert">([^<]*)<\/p>/.exec(body)?.[1]?.replaceAll('&quot;', '"');

/** A confirmed request waiting for the operator, through the real form: its id. */
async function confirmedRequest(email: string, plan: string, from: string): Promise<string> {
  const asked = await postForm(`${server.url}/keys/requests`, requestBody({ email, plan }), { localAddress: from });
  expect(asked.status).toBe(202);
  const link = confirmationLinkIn(await mailTo(inbox, email, /^Confirm your request/))!;
  await postForm(`${server.url}/keys/confirm`, `token=${tokenOfLink(link)}`, {
    contentType: 'application/x-www-form-urlencoded',
    localAddress: from,
  });
  const row = await database.db
    .selectFrom('key_requests')
    .select(['id', 'status'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  expect(row.status).toBe('pending');
  return row.id;
}

const statusOf = async (id: string) =>
  (await database.db.selectFrom('key_requests').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

beforeAll(async () => {
  [cli, database, inbox] = await Promise.all([buildAdminCli(), createTestDatabase(), startSmtpInbox()]);
  await loadFixtureCorpus(database);
  server = await startServerMailingTo(database, inbox);
  console_ = await startConsoleProcess({
    DATABASE_URL: database.url,
    SMTP_URL: inbox.url,
    MAIL_FROM: 'Keys <keys@quotes.example.test>',
    PUBLIC_BASE_URL: server.url,
  });
  first = (await signIn(console_.signInUrl)) as Browser;
}, 120_000);
afterAll(async () => {
  await console_?.stop('SIGTERM', 10_000);
  await server?.close();
  await inbox?.close();
  await database?.drop();
});

describe('the console’s sign-in links', { timeout: 60_000 }, () => {
  it('a link made by the CLI while the console runs signs in a second browser; the first session goes on', async () => {
    expect(await signIn(console_.signInUrl)).toBe(403);
    const port = new URL(console_.url).port;
    const made = await cli.run({ DATABASE_URL: database.url }, 'console', 'link', '--port', port);
    expect(made.code, made.stderr).toBe(0);
    const link = /Sign in \(the link works once, within 15 minutes\): (\S+)/.exec(made.stdout)?.[1];
    expect(link, made.stdout).toMatch(new RegExp(`^${console_.url}/sign-in\\?token=[\\w-]{43}$`));
    const second = await signIn(link!);
    expect(second).toMatchObject({ cookie: expect.any(String) });
    expect((await get(second as Browser, '/')).status).toBe(200);
    expect((await get(first, '/')).status).toBe(200);
    // Each link once.
    expect(await signIn(link!)).toBe(403);
  });

  it('refuses a link to a port where no console answers, naming --port', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const refused = await cli.run({ DATABASE_URL: database.url }, 'console', 'link', '--port', String(closed));
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `quotes-admin: no console answers at http://127.0.0.1:${closed}: name the running console's port (quotes-admin console link --port P), or start one (quotes-admin console)\n`,
    );
  });
});

describe('deciding requests from the console', { timeout: 120_000 }, () => {
  it('approves with a chosen plan through the CLI’s service: the key mailed with the public address, audited as the console', async () => {
    const id = await confirmedRequest('cleo@example.com', 'starter', '127.41.0.1');
    const overview = await get(first, '/');
    expect(overview.body).toContain(`<a href="/requests/${id}">${id}</a>`);
    const page = await get(first, `/requests/${id}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('the starter plan is granted by the operator');
    expect(page.body).toContain(`action="/requests/${id}/approve"`);

    // The console's protections: no CSRF token, no decision.
    expect((await post(first, `/requests/${id}/approve`, { plan: 'professional' }, false)).status).toBe(403);
    expect(await statusOf(id)).toBe('pending');

    const approved = await post(first, `/requests/${id}/approve`, { plan: 'professional' });
    expect(approved.status).toBe(303);
    expect(approved.location).toBe(`/requests/${id}?done=approve`);
    const mail = await mailTo(inbox, 'cleo@example.com', /API key \(professional plan\)/);
    expect(mail.text).toContain(`${server.url}/`);
    expect(mail.text).not.toContain('127.0.0.1:3000');
    const key = keyIn(mail)!;
    expect((await fetch(`${server.url}/v1/quotes-random`, { headers: { 'X-API-Key': key } })).status).toBe(200);

    const row = await database.db
      .selectFrom('key_requests')
      .select(['status', 'key_id', 'plan_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'approved', plan_id: 'professional' });
    const shown = await get(first, `/requests/${id}?done=approve`);
    expect(shown.body).toContain(`<a href="/keys/${row.key_id}">${row.key_id}</a>`);
    expect(shown.body).not.toContain(`action="/requests/${id}/approve"`);
    const audit = await database.db
      .selectFrom('operator_audit')
      .select(['action', 'actor'])
      .where('target', '=', id)
      .execute();
    expect(audit).toEqual([{ action: 'requests approve', actor: expect.stringMatching(/^console:[0-9a-f]{8}$/) }]);

    // Decided once: a second approval is refused in words, nothing mailed again.
    const again = await post(first, `/requests/${id}/approve`, { plan: 'starter' });
    expect(again.status).toBe(409);
    expect(alertOf(again.body)).toMatch(/is approved; only pending/);
  });

  it("rejects with a category, whose words are mailed and never the operator's; without one it is refused and the form kept", async () => {
    const id = await confirmedRequest('rex@example.com', 'platform', '127.42.0.1');
    const empty = await post(first, `/requests/${id}/reject`, { reason: 'internal: looks like a reseller' });
    expect(empty.status).toBe(400);
    expect(alertOf(empty.body)).toMatch(/^category must be one of terms-bulk-harvest, .*, other, got ""$/);
    expect(empty.body).toContain('internal: looks like a reseller</textarea>');
    expect(await statusOf(id)).toBe('pending');
    const rejected = await post(first, `/requests/${id}/reject`, {
      category: 'terms-bulk-harvest',
      reason: 'internal: looks like a reseller',
    });
    expect(rejected.status).toBe(303);
    const mail = await mailTo(inbox, 'rex@example.com', /^Your request for a Quote Retrieval Service API key$/);
    expect(mail.text).toContain('The reason recorded: terms: harvesting, reselling or redistributing the data.');
    for (const part of [mail.text ?? '', String(mail.html)]) expect(part).not.toContain('reseller');
    expect(await statusOf(id)).toBe('rejected');
  });

  it('shows a request escaped, its invisible characters as escapes, and says no such request in words', async () => {
    await insertPendingRequests(database, ['r_shown1'], { plan: 'trial', network: '127.43.0' });
    await database.db
      .updateTable('key_requests')
      .set({ name: '<b>Eve</b>\u202Egnp.exe', application: 'x" onmouseover="alert(1)' })
      .where('id', '=', 'r_shown1')
      .execute();
    const page = await get(first, '/requests/r_shown1');
    expect(page.status).toBe(200);
    expect(page.body).toContain('&lt;b&gt;Eve&lt;/b&gt;\\u202egnp.exe');
    expect(page.body).not.toContain('<b>Eve');
    expect(page.body).not.toContain('\u202E');
    expect(page.body).toContain('x&quot; onmouseover=&quot;alert(1)');
    const missing = await get(first, '/requests/r_nope');
    expect(missing.status).toBe(404);
    expect(alertOf(missing.body)).toBe('no key request with id "r_nope" (see: requests list)');
  });
});

describe('the overview’s signs of broken terms', { timeout: 60_000 }, () => {
  it('show one row per finding, linking every request it involves, and never count unconfirmed requests', async () => {
    const rotated = ['r_rotate1', 'r_rotate2', 'r_rotate3', 'r_rotate4'];
    await insertPendingRequests(database, rotated, { plan: 'trial', network: '127.45.0' });
    const typed = ['r_typed1', 'r_typed2', 'r_typed3'];
    await insertPendingRequests(database, typed, { plan: 'trial', network: '127.46.0' });
    await database.db
      .updateTable('key_requests')
      .set({ status: 'unconfirmed', confirmed_at: null })
      .where('id', 'in', typed)
      .execute();
    const overview = (await get(first, '/')).body;
    const signs = overview.slice(overview.indexOf('Signs of broken terms'), overview.indexOf('Pending key requests'));
    const rows = signs.split('<tr>').filter((row) => row.includes('trial-rotation'));
    expect(rows).toHaveLength(1);
    for (const id of rotated) expect(rows[0]).toContain(`<a href="/requests/${id}">${id}</a>`);
    expect(rows[0]).toContain('127.45.0.0/24');
    expect(signs).not.toContain('r_typed');
    // Each request's link leads to its page, not to a key's "not found".
    expect((await get(first, '/requests/r_rotate1')).status).toBe(200);
  });
});

describe('a console that cannot know the public address', { timeout: 60_000 }, () => {
  it('refuses to approve in one sentence naming PUBLIC_BASE_URL, and the request stays pending', async () => {
    const config = parseConfig({ DATABASE_URL: database.url });
    const mailer = createMailer({ smtpUrl: inbox.url, from: 'keys@quotes.example.test', outboxDir: '/nonexistent' });
    const running = await startConsole({
      database,
      host: '127.0.0.1',
      port: 0,
      keyRequests: { mailer, publicBaseUrl: undefined, bounds: keyRequestBounds(config) },
    });
    try {
      const id = await confirmedRequest('noa@example.com', 'starter', '127.44.0.1');
      const answer = await fetch(running.signInUrl, { redirect: 'manual' });
      const cookie = answer.headers.getSetCookie()[0]!.split(';')[0]!;
      const page = await (await fetch(`${running.url}/requests/${id}`, { headers: { cookie } })).text();
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
      const approved = await fetch(`${running.url}/requests/${id}/approve`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ plan: 'starter', _csrf: csrf }),
        redirect: 'manual',
      });
      expect(approved.status).toBe(403);
      expect(alertOf(await approved.text())).toMatch(/^PUBLIC_BASE_URL is not set: /);
      expect(await statusOf(id)).toBe('pending');
      expect(
        await database.db.selectFrom('api_keys').select('id').where('email', '=', 'noa@example.com').execute(),
      ).toEqual([]);
    } finally {
      mailer.close();
      await running.close();
    }
  });
});
