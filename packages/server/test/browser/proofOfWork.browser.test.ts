import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { browserSkipReason, launchChromium } from '@quotes/docs/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { mailTo, startServerMailingTo } from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';

const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));

// The proof of work as a visitor meets it while the service is busy, in Chromium: the widget's
// files come from the service itself under the pages' policy (nothing from elsewhere, no policy
// violation), it solves the challenge by itself, and the form sent after that is accepted and
// mailed by a real SMTP server. Setting beyond testConfig, and why: PROOF_OF_WORK_FROM_PERCENT=0,
// busy from the first page (the default asks from a fifth of the hour's mail budget).
describe.skipIf(browserSkipReason !== undefined)('the proof of work in Chromium', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let inbox: SmtpInbox;
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  const violations: string[] = [];
  const elsewhere: string[] = [];

  beforeAll(async () => {
    [database, inbox, browser] = await Promise.all([createTestDatabase(), startSmtpInbox(), launchChromium()]);
    server = await startServerMailingTo(database, inbox, {}, { PROOF_OF_WORK_FROM_PERCENT: '0' });
    await server.operator.createKey({ client: 'Holder app', email: 'holder@example.com', plan: 'starter' });
    context = await browser.newContext({ viewport: { width: 320, height: 640 } });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    // Every request the page (and its workers) makes, checked to stay on the service.
    context.on('request', (request) => {
      if (!request.url().startsWith(`${server.url}/`)) elsewhere.push(request.url());
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await inbox?.close();
    await database?.drop();
  });

  /** The widget's payload once it has solved (its hidden field, posted with the form); the time it took from the page's load. */
  const solved = async (): Promise<number> => {
    const field = page.locator('input[name="altcha"]');
    await expect
      .poll(async () => (await field.count()) > 0 && (await field.inputValue()) !== '', { timeout: 60_000 })
      .toBe(true);
    return page.evaluate<number>('performance.now()');
  };

  it('loads the widget from the service itself, solves, and the key request sent then is accepted', async () => {
    await page.goto(`${server.url}/keys/request`);
    await page.getByLabel('E-mail address').fill('solver@example.com');
    await page.getByLabel('Your name').fill('Sol Ver');
    await page.getByLabel('Application').fill('Puzzle page');
    await page.getByLabel('What the key is for').fill('A quote beside each puzzle.');
    await page.locator('#accept_terms').check();
    await solved();
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: `${outputDir}proof-of-work-solved.png`, fullPage: true });
    await page.getByRole('button', { name: 'Ask for a key' }).click();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Check your mail');
    await mailTo(inbox, 'solver@example.com', /^Confirm your request/);
    const recorded = await database.db
      .selectFrom('key_requests')
      .select('email')
      .where('email', '=', 'solver@example.com')
      .execute();
    expect(recorded).toHaveLength(1);
    expect({ pageErrors, violations, elsewhere }).toEqual({ pageErrors: [], violations: [], elsewhere: [] });
  });

  it('asks the same of the sign-in form, and mails the link once solved', async () => {
    await page.goto(`${server.url}/account`);
    await page.getByLabel('E-mail address').fill('holder@example.com');
    await solved();
    await page.getByRole('button', { name: 'Mail me a sign-in link' }).click();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Check your mail');
    await mailTo(inbox, 'holder@example.com', /^Sign in to your/);
    expect({ pageErrors, violations, elsewhere }).toEqual({ pageErrors: [], violations: [], elsewhere: [] });
  });

  it('solves in about a second: the figure of five loads', async () => {
    const times: number[] = [];
    for (let load = 0; load < 5; load++) {
      await page.goto(`${server.url}/keys/request`);
      times.push(await solved());
    }
    mkdirSync(outputDir, { recursive: true });
    writeFileSync(
      `${outputDir}proof-of-work-chromium.json`,
      `${JSON.stringify({ msFromNavigationToSolved: times.map(Math.round) })}\n`,
    );
    // The widget holds at least half a second (its minDuration); at this difficulty well under 15 s.
    for (const time of times) expect(time).toBeLessThan(15_000);
  });

  it('tells a visitor without JavaScript why and what to do', async () => {
    const plain = await browser.newContext({ javaScriptEnabled: false });
    const noScript = await plain.newPage();
    await noScript.goto(`${server.url}/keys/request`);
    expect(await noScript.locator('main').innerText()).toContain(
      'While the service is busy, this form asks your browser for a small proof of work',
    );
    await plain.close();
  });
});
