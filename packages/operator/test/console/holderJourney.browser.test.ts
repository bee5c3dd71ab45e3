import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { browserSkipReason, launchChromium } from '@quotes/docs/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { IssuedKey } from '@quotes/accounts';
import type { RunningServer } from '@quotes/server';
import {
  loadFixtureCorpus,
  newMailTo,
  type SmtpInbox,
  signInLinkIn,
  startServerMailingTo,
  startSmtpInbox,
} from '@quotes/server/testing';
import { type ConsoleProcess, startConsoleProcess } from '../support/consoleProcess.js';

const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));

// A key holder on their page as they would be: the link from the mail a real SMTP server
// received, the chart of their calls, a roll whose old secret real /v1 calls then find refused,
// an origin, a plan change the operator approves in the console (its own process, in a second
// browser), and the decision's mail.
describe.skipIf(browserSkipReason !== undefined)("a key holder's page in Chromium", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let inbox: SmtpInbox;
  let server: RunningServer;
  let console_: ConsoleProcess;
  let browser: Browser;
  let page: Page;
  let issued: IssuedKey;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [database, inbox, browser] = await Promise.all([createTestDatabase(), startSmtpInbox(), launchChromium()]);
    await loadFixtureCorpus(database);
    server = await startServerMailingTo(database, inbox);
    console_ = await startConsoleProcess({
      DATABASE_URL: database.url,
      SMTP_URL: inbox.url,
      MAIL_FROM: 'Keys <keys@quotes.example.test>',
      PUBLIC_BASE_URL: server.url,
    });
    issued = await server.operator.createKey({ client: 'Reading nook', plan: 'starter', email: 'reader@example.com' });
    // Calls to chart: served ones, and one refused for its origin.
    for (let index = 0; index < 4; index++)
      await fetch(`${server.url}/v1/quotes-random`, { headers: { 'X-API-Key': issued.key } });
    await server.operator.setAllowedOrigins(issued.id, ['https://reader.example']);
    await fetch(`${server.url}/v1/quotes-random`, {
      headers: { 'X-API-Key': issued.key, Origin: 'https://elsewhere.example' },
    });
    await server.flushUsageHistory();
    const context = await browser.newContext({ viewport: { width: 390, height: 800 }, javaScriptEnabled: false });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await console_?.stop('SIGTERM', 10_000);
    await server?.close();
    await inbox?.close();
    await database?.drop();
  });

  const call = async (key: string) =>
    (await fetch(`${server.url}/v1/quotes-random`, { headers: { 'X-API-Key': key } })).status;
  const heading = () => page.getByRole('heading', { level: 1 }).innerText();

  it('signs in by the mailed link and sees the chart of the calls', async () => {
    await page.goto(`${server.url}/account`);
    expect(await heading()).toBe('Your keys');
    const before = inbox.messages.length;
    await page.getByLabel('E-mail address').fill('reader@example.com');
    await page.getByRole('button', { name: 'Mail me a sign-in link' }).click();
    expect(await heading()).toBe('Check your mail');
    const link = signInLinkIn(await newMailTo(inbox, before, 'reader@example.com', /^Sign in to your/))!;
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await heading()).toBe('Your keys');
    await page.getByRole('link', { name: `Reading nook (${issued.id})` }).click();
    expect(await heading()).toBe(`Key Reading nook (${issued.id})`);
    const chart = page.getByRole('img', { name: /^Calls per day since the key was issued on / });
    expect(await chart.isVisible()).toBe(true);
    // The bars drawn: one period with calls, four served and one refused.
    expect(await chart.locator('g.period rect').count()).toBe(2);
    const today = new Date().toISOString().slice(0, 10);
    expect(await chart.locator('g.period title').filter({ hasText: today }).textContent()).toBe(
      `${today}: served 4, refused 1`,
    );
    expect(await page.locator('table.refusals').innerText()).toContain('Origin not allowed for this key');
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: `${outputDir}account-key.png`, fullPage: true });
  });

  it('rolls the key at once: the old secret answers 401, the new one 200', async () => {
    expect(await call(issued.key)).toBe(200);
    await page.getByLabel('at once').check();
    await page.getByRole('button', { name: 'Roll the key' }).click();
    expect(await heading()).toBe('Your new secret');
    const secret = await page.locator('#new-key').innerText();
    expect(secret).toMatch(/^qk_/);
    expect(await call(issued.key)).toBe(401);
    expect(await call(secret)).toBe(200);
    await page.getByRole('link', { name: 'Back to the key' }).click();
  });

  it('sets an origin', async () => {
    await page.getByLabel('Origins').fill('https://reader.example\nhttps://new-app.example');
    await page.getByRole('button', { name: 'Save the origins' }).click();
    expect(await page.locator('.notice').innerText()).toBe(
      'Allowed origins saved: https://reader.example, https://new-app.example.',
    );
    expect((await server.operator.showKey(issued.id)).allowedOrigins).toEqual([
      'https://reader.example',
      'https://new-app.example',
    ]);
  });

  it('asks for a plan change, which the operator approves, and the decision is mailed', async () => {
    await page.getByLabel('another plan', { exact: true }).check();
    await page.getByLabel('Plan (for another plan)').selectOption('professional');
    await page.getByLabel('Why').fill('Our readers doubled.');
    await page.getByRole('button', { name: 'Send the request' }).click();
    expect(await page.locator('.notice').innerText()).toContain('Your request is with the operator');

    // The operator, in a browser of their own: the console's queue, the request's page, approve.
    const operatorContext = await browser.newContext();
    const operatorPage = await operatorContext.newPage();
    await operatorPage.goto(console_.signInUrl);
    const row = await database.db
      .selectFrom('key_requests')
      .select(['id', 'kind', 'plan_id'])
      .where('for_key_id', '=', issued.id)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'plan-change', plan_id: 'professional' });
    await operatorPage.getByRole('link', { name: row.id }).first().click();
    expect(await operatorPage.getByRole('heading', { level: 1 }).innerText()).toBe(`Request ${row.id}`);
    expect(await operatorPage.locator('dl.facts').innerText()).toContain("a change of plan for the holder's key");
    expect(await operatorPage.getByLabel('Plan').inputValue()).toBe('professional');
    const before = inbox.messages.length;
    await operatorPage.getByRole('button', { name: 'Approve and mail the holder' }).click();
    expect(await operatorPage.locator('.notice').first().innerText()).toContain('Approved');
    await operatorContext.close();
    const decision = await newMailTo(inbox, before, 'reader@example.com', /is approved$/);
    expect(decision.text).toContain('now on the professional plan');
    await page.reload();
    expect(await page.locator('dl').first().innerText()).toContain('professional');
    expect(pageErrors).toEqual([]);
  });
});
