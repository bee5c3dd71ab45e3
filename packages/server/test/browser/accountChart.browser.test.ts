import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { browserSkipReason, launchChromium } from '@quotes/docs/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { AccountClient } from '../../testing/accountClient.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { startServerMailingTo } from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { manualClock } from '../../testing/testServer.js';

const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));
const time = manualClock('2026-10-01T12:00:00Z');

/** Each axis label as Chromium draws it: its text and its font size on screen, in CSS px. */
const ticksScript = `[...document.querySelectorAll('svg.chart-svg text.tick')].map((text) => ({
  text: text.textContent,
  px: text.getScreenCTM().a * Number(text.getAttribute('font-size')),
  figure: text.closest('figure').getAttribute('data-figure'),
}))`;

// The holder's chart as people read it: in real Chromium, at a desktop's and a phone's width.
describe.skipIf(browserSkipReason !== undefined)("the holder's usage chart in Chromium", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let inbox: SmtpInbox;
  let server: RunningServer;
  let browser: Browser;
  let older: { id: string; key: string };
  let newer: { id: string; key: string };
  let session: string;

  beforeAll(async () => {
    [database, inbox, browser] = await Promise.all([createTestDatabase(), startSmtpInbox(), launchChromium()]);
    await loadFixtureCorpus(database);
    server = await startServerMailingTo(database, inbox, { clock: time.clock });
    const email = 'charts@example.com';
    older = await server.operator.createKey({ client: 'Old app', plan: 'starter', email });
    time.advance(57 * 86_400_000 - 2 * 3_600_000); // 2026-11-27T10:00:00Z
    newer = await server.operator.createKey({ client: 'New app', plan: 'starter', email });
    for (const key of [older.key, older.key, newer.key])
      expect((await fetch(`${server.url}/v1/quotes-random`, { headers: { 'X-API-Key': key } })).status).toBe(200);
    await server.flushCounts();
    await server.flushUsageHistory();
    const client = new AccountClient(server.url);
    await client.signIn(inbox, email);
    session = client.cookies.get('quotes_account')!;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await inbox?.close();
    await database?.drop();
  });

  async function open(id: string, width: number) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false });
    await context.addCookies([{ name: 'quotes_account', value: session, url: `${server.url}/account` }]);
    const page = await context.newPage();
    const answer = await page.goto(`${server.url}/account/keys/${id}`);
    expect(answer?.status()).toBe(200);
    return { page, context };
  }

  it('labels both axes in type at least 11 px high at 390 px, and shows the 90 days only for a key older than 30', async () => {
    mkdirSync(outputDir, { recursive: true });
    const sizes: Record<number, number> = {};
    for (const width of [1280, 390]) {
      const { page, context } = await open(older.id, width);
      const ticks = (await page.evaluate(ticksScript)) as { text: string; px: number; figure: string }[];
      const thirty = ticks.filter((tick) => tick.figure === 'days-30').map((tick) => tick.text);
      // Values up the y axis, dates along the x axis (weekly over 30 days).
      expect(thirty).toEqual(['0', '1', '2', 'Oct 29', 'Nov 5', 'Nov 12', 'Nov 19', 'Nov 26']);
      // The 90-day window starts on the key's first day, not before it.
      const ninety = ticks.filter((tick) => tick.figure === 'days-90').map((tick) => tick.text);
      expect(ninety).toEqual(['0', '1', '2', 'Oct 1', 'Oct 15', 'Oct 29', 'Nov 12', 'Nov 26']);
      expect(await page.locator('figcaption').allInnerTexts()).toEqual([
        'Calls per day, last 30 days (UTC)',
        'Calls per day since the key was issued on 2026-10-01 (UTC)',
      ]);
      sizes[width] = Math.min(...ticks.map((tick) => tick.px));
      await page.screenshot({ path: `${outputDir}account-chart-${width}.png`, fullPage: true });
      await context.close();
    }
    expect(sizes[390]).toBeGreaterThanOrEqual(11);
    expect(sizes[1280]).toBeGreaterThanOrEqual(11);
    console.log(`smallest axis label: ${sizes[390]!.toFixed(1)} px at 390, ${sizes[1280]!.toFixed(1)} px at 1280`);

    // A key issued today: one chart, from today.
    const { page, context } = await open(newer.id, 390);
    expect(await page.locator('figcaption').allInnerTexts()).toEqual([
      'Calls per day since the key was issued on 2026-11-27 (UTC)',
    ]);
    const ticks = (await page.evaluate(ticksScript)) as { text: string }[];
    expect(ticks.map((tick) => tick.text)).toEqual(['0', '1', 'Nov 27']);
    await context.close();
  });
});
