import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { browserSkipReason, launchChromium } from '@quotes/docs/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { confirmationLinkIn, keyIn, mailTo, startServerMailingTo } from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';

const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));

// A person asking for a key as they would: the form in Chromium at a phone's width, the link
// from the mail a real SMTP server received, the button, the key from the next mail, a call.
describe.skipIf(browserSkipReason !== undefined)('asking for a key in Chromium', { timeout: 90_000 }, () => {
  let database: TestDatabase;
  let inbox: SmtpInbox;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [database, inbox, browser] = await Promise.all([createTestDatabase(), startSmtpInbox(), launchChromium()]);
    await loadFixtureCorpus(database);
    server = await startServerMailingTo(database, inbox);
    const context = await browser.newContext({ viewport: { width: 320, height: 640 }, javaScriptEnabled: false });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await inbox?.close();
    await database?.drop();
  });

  /** The page fits the viewport: nothing to scroll sideways. */
  const fitsWidth = () => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

  it('shows the form without JavaScript at 320 px, trial first, linking the terms', async () => {
    await page.goto(`${server.url}/keys/request`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Ask for an API key');
    expect(await fitsWidth()).toBe(true);
    const plans = await page
      .locator('#plan option')
      .evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));
    expect(plans).toEqual(['trial', 'starter', 'professional', 'platform', 'enterprise']);
    // The field only robots fill is off the screen for people.
    expect((await page.locator('#homepage').boundingBox())!.x).toBeLessThan(-1000);
    await page.getByRole('link', { name: 'terms of use' }).click();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Terms of use');
    expect(await page.locator('main').innerText()).toContain('Share or publish a key');
    expect(await fitsWidth()).toBe(true);
  });

  it('submits, confirms from the mailed link, and the mailed key answers 200', async () => {
    await page.goto(`${server.url}/keys/request`);
    await page.getByLabel('E-mail address').fill('reader@example.com');
    await page.getByLabel('Your name').fill('Rea <b>Der</b>');
    await page.getByLabel('Application').fill('Reading nook');
    await page.getByLabel('What the key is for').fill('A quote beside each chapter.');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Ask for a key' }).click();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Check your mail');

    const confirmation = await mailTo(inbox, 'reader@example.com', /^Confirm your request/);
    // Nothing typed into the form reaches an address before it is confirmed.
    expect(`${confirmation.text}${confirmation.html}`).not.toMatch(/Rea|Der|Reading nook/);
    await page.goto(confirmationLinkIn(confirmation)!);
    expect(await fitsWidth()).toBe(true);
    await page.getByRole('button', { name: 'Confirm' }).click();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Address confirmed');
    expect(await page.locator('main').innerText()).toContain('Your key is on its way to reader@example.com');

    const keyMail = await mailTo(inbox, 'reader@example.com', /API key \(trial plan\)/);
    // Confirmed, the key's mail names the application and the person, escaped in the HTML part.
    expect(keyMail.html).toContain('Reading nook (Rea &lt;b&gt;Der&lt;/b&gt;)');
    const key = keyIn(keyMail)!;
    const call = await fetch(`${server.url}/v1/quotes-random`, { headers: { 'X-API-Key': key } });
    expect(call.status).toBe(200);
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: `${outputDir}key-request-confirmed.png` });
  });

  it('shows the same link, used, as not working', async () => {
    const confirmation = await mailTo(inbox, 'reader@example.com', /^Confirm your request/);
    await page.goto(confirmationLinkIn(confirmation)!);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('This link does not work');
  });

  it('shows what to correct on the form itself', async () => {
    await page.goto(`${server.url}/keys/request`);
    // The browser's own checks would stop an empty form: a value only the server refuses.
    await page.getByLabel('E-mail address').fill('someone@example.com');
    await page.getByLabel('Your name').fill('Some One');
    await page.getByLabel('Application').fill('App');
    await page.getByLabel('What the key is for').fill('Testing');
    await page.locator('#plan').evaluate((select) => {
      const option = (select as unknown as { options: { value: string }[] }).options[0]!;
      option.value = 'gold';
    });
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Ask for a key' }).click();
    // The list at the top names the field by its label; the reason stands beside the field.
    expect(await page.getByRole('alert').innerText()).toContain('Plan');
    expect(await page.getByRole('alert').innerText()).not.toContain('plan:');
    expect(await page.locator('#plan-error').innerText()).toMatch(/^Choose one of the plans listed \(trial, /);
    expect(await page.getByLabel('Your name').inputValue()).toBe('Some One');
    // The terms stay ticked: nothing to do twice.
    expect(await page.getByRole('checkbox').isChecked()).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('says beside each text field what it takes, and beside the field what it refused', async () => {
    await page.goto(`${server.url}/keys/request`);
    expect(await page.locator('#name-hint').innerText()).toMatch(/One line of plain text, at most 200 characters/);
    expect(await page.locator('#use-hint').innerText()).toMatch(/at most 1,000 characters; line breaks are fine/);
    await page.getByLabel('E-mail address').fill('bidi@example.com');
    await page.getByLabel('Your name').fill('Bi Di');
    // What a person would paste from elsewhere: a right-to-left override hiding the real ending.
    await page.getByLabel('Application').fill('Reader \u202Etxt.exe');
    await page.getByLabel('What the key is for').fill('Line one\nline two');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Ask for a key' }).click();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Ask for an API key');
    const application = page.locator('#application');
    expect(await application.getAttribute('aria-invalid')).toBe('true');
    expect(await application.getAttribute('aria-describedby')).toBe('application-hint application-error');
    expect(await page.locator('#application-error').innerText()).toBe(
      'Application contains a bidirectional control character (U+202E), which changes the order text is shown in.',
    );
    // The other fields passed: nothing said beside them, what was typed kept.
    expect(await page.locator('#name-error').count()).toBe(0);
    expect(await page.getByLabel('What the key is for').inputValue()).toBe('Line one\nline two');
    expect(await fitsWidth()).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
