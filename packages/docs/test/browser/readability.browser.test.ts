import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  launchChromium,
  type Listening,
  operationIds,
  overlappingTextInAuthentication,
  overlappingTextInTestRequest,
  prefilledKeyField,
  readingViewports,
  unreachableResponseTabs,
  wordsBrokenInTables,
} from '../../testing/index.js';
import { startReferenceApp } from '../support/referenceApp.js';

const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));

/** The checks made at each size, in the order they run on that size's page. */
const checks = {
  'breaks no word of the plan tables across lines': wordsBrokenInTables,
  'draws no text of the authentication box over other text': overlappingTextInAuthentication,
  'draws no text of the "Test Request" window\'s authentication box over other text': (page: Page) =>
    overlappingTextInTestRequest(page, 'getRandomQuote'),
  'shows the key field empty, with no placeholder that looks like a key': prefilledKeyField,
  "shows every one of each operation's response tabs whole, and selects it on a click": async (
    page: Page,
    size: string,
  ) => {
    const unreachable: string[] = [];
    for (const operationId of operationIds()) unreachable.push(...(await unreachableResponseTabs(page, operationId)));
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: `${outputDir}docs-responses-${size}.png` });
    return unreachable;
  },
} satisfies Record<string, (page: Page, size: string) => Promise<string[]>>;
type Check = keyof typeof checks;

describe.skipIf(browserSkipReason !== undefined)('the reference page reads well in Chromium', () => {
  let app: Listening;
  let browser: Browser;
  /**
   * What each check found at each size. The sizes are checked at the same time, each on a page of
   * its own (most of a check is waiting for the page to come to rest), their checks one after
   * another on that page, in the order above, as the tests read them.
   */
  const found = new Map<string, Record<Check, Promise<string[]>>>();

  beforeAll(async () => {
    app = await startReferenceApp();
    browser = await launchChromium();
    for (const viewport of readingViewports) found.set(viewport.name, checksAt(viewport));
  });

  afterAll(async () => {
    // Every size's checks have ended (each test awaited its own) or failed; the pages go with the browser.
    await Promise.allSettled([...found.values()].flatMap((results) => Object.values(results)));
    await browser?.close();
    await app?.close();
  });

  /** Opens the page at `viewport` and starts its checks in order; each result whatever the others' were. */
  function checksAt(viewport: (typeof readingViewports)[number]): Record<Check, Promise<string[]>> {
    const opened = (async () => {
      const page = await browser.newPage({ viewport });
      // Not ReferencePage.open: it waits for the sidebar, which a phone's window folds away.
      expect((await page.goto(`${app.url}/docs`))?.status()).toBe(200);
      return page;
    })();
    let previous: Promise<unknown> = opened;
    const results = {} as Record<Check, Promise<string[]>>;
    for (const [name, check] of Object.entries(checks) as Array<
      [Check, (page: Page, size: string) => Promise<string[]>]
    >) {
      const run = async () => check(await opened, viewport.name);
      const result = previous.then(run, run);
      // A failure is read by its own test; this copy only orders the next check after it.
      result.catch(() => undefined);
      results[name] = result;
      previous = result;
    }
    return results;
  }

  describe.each(readingViewports)('at $name', (viewport) => {
    // The tabs' check waits for the page to rest at each tab, while the other size's checks run.
    it.each(Object.keys(checks) as Check[])('%s', { timeout: 120_000 }, async (check) => {
      expect(await found.get(viewport.name)![check]).toEqual([]);
    });
  });
});
