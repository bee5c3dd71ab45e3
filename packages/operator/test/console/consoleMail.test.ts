import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, createOperatorApi, type Mailer, type OperatorApi } from '@quotes/accounts';
import { type SmtpInbox, startSmtpInbox } from '@quotes/server/testing';
import { keyRequestBounds, parseConfig } from '@quotes/service-base';
import { type RunningConsole, startConsole } from '../../src/console/consoleServer.js';
import { type ConsoleSession, signIntoConsole } from '../support/consoleSession.js';

// The console over real HTTP with the mail settings `quotes-admin console` gives it, mailing
// through a real SMTP server.
let database: TestDatabase;
let inbox: SmtpInbox;
let operator: OperatorApi;
let running: RunningConsole;
let session: ConsoleSession;
let mailer: Mailer;

const get = (path: string) => session.get(path);
const post = (path: string, form: Record<string, string>) => session.post(path, form);

/** A textarea's text as the browser shows it and sends it back. */
const textareaOf = (body: string, name: string) =>
  new RegExp(`<textarea[^>]* name="${name}"[^>]*>([^<]*)</textarea>`)
    .exec(body)?.[1]
    ?.replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  operator = createOperatorApi(database);
  mailer = createMailer({ smtpUrl: inbox.url, from: 'Keys <keys@quotes.example.test>', outboxDir: '/nonexistent' });
  running = await startConsole({
    database,
    host: '127.0.0.1',
    port: 0,
    keyRequests: {
      mailer,
      publicBaseUrl: 'https://quotes.example.test',
      bounds: keyRequestBounds(parseConfig({})),
    },
  });
  session = await signIntoConsole(running);
}, 60_000);
afterAll(async () => {
  await running?.close();
  mailer?.close();
  await inbox?.close();
  await database?.drop();
});

describe('the console tells the holder', () => {
  it('mails the holder a plan change made in the console, with their page', async () => {
    const { id } = await operator.createKey({ client: 'Plan Co', plan: 'starter', email: 'pat@example.com' });
    expect((await post(`/keys/${id}/actions/change-plan`, { plan: 'professional' })).status).toBe(303);
    expect((await operator.showKey(id)).plan).toBe('professional');
    const [mail] = await inbox.waitFor(1);
    expect(mail!.to && !Array.isArray(mail!.to) ? mail!.to.text : '').toBe('pat@example.com');
    expect(mail!.subject).toMatch(
      /^Quote Retrieval Service: key qk_\w+\.\.\. \(k_\w+\) is now on the professional plan$/,
    );
    expect(mail!.text).toContain('from the starter plan to the professional plan');
    expect(mail!.text).toContain('https://quotes.example.test/account');
    // The audit page says it in one sentence, the session named.
    const audit = (await get('/audit')).body;
    expect(audit).toMatch(
      new RegExp(
        `<td>The operator \\(console session [0-9a-f]{8}\\) moved key ${id} \\(Plan Co\\) from the starter plan to the professional plan\\.</td>`,
      ),
    );
  });
});

describe('the console’s browser origins', () => {
  it('shows the origins one a line, and saving the shown value keeps them', async () => {
    const origins = ['https://app.example.com', 'http://localhost:*'];
    const { id } = await operator.createKey({ client: 'Origin Co', plan: 'starter', allowedOrigins: origins });
    const shown = textareaOf((await get(`/keys/${id}`)).body, 'origins');
    expect(shown).toBe('https://app.example.com\nhttp://localhost:*');
    const confirm = await get(`/keys/${id}/confirm/set-origins?${new URLSearchParams({ origins: shown! })}`);
    expect(confirm.status).toBe(200);
    expect((await post(`/keys/${id}/actions/set-origins`, { origins: shown! })).status).toBe(303);
    expect((await operator.showKey(id)).allowedOrigins).toEqual(origins);
  });
});

describe('the console tells the holder of a renewal', () => {
  it('mails the holder a renewal made in the console, with the new expiry in words', async () => {
    const { id } = await operator.createKey({ client: 'Renew Co', plan: 'starter', email: 'rene@example.com' });
    const until = new Date(Date.now() + 60 * 86_400_000);
    const day = until.toISOString().slice(0, 10);
    const before = inbox.messages.length;
    expect((await post(`/keys/${id}/actions/renew`, { until: day })).status).toBe(303);
    expect((await operator.showKey(id)).expiresAt?.slice(0, 10)).toBe(day);
    const [mail] = (await inbox.waitFor(before + 1)).slice(before);
    expect(mail!.to && !Array.isArray(mail!.to) ? mail!.to.text : '').toBe('rene@example.com');
    expect(mail!.subject).toMatch(/^Quote Retrieval Service: key qk_\w+\.\.\. \(k_\w+\) is renewed$/);
    const month = until.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' });
    expect(mail!.text).toContain(
      `for Renew Co, on the starter plan: it now works until the end of ${until.getUTCDate()} ${month} ${until.getUTCFullYear()} (UTC).`,
    );
    expect(mail!.text).toContain('https://quotes.example.test/account');
  });
});
