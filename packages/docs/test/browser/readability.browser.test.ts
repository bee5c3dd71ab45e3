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

describe.skipIf(browserSkipReason !== undefined)('the reference page reads well in Chromium', () => {
  let app: Listening;
  let browser: Browser;

  beforeAll(async () => {
    app = await startReferenceApp();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  describe.each(readingViewports)('at $name', (viewport) => {
    let page: Page;

    beforeAll(async () => {
      page = await browser.newPage({ viewport });
      // Not ReferencePage.open: it waits for the sidebar, which a phone's window folds away.
      expect((await page.goto(`${app.url}/docs`))?.status()).toBe(200);
    });

    afterAll(async () => {
      await page?.close();
    });

    it('breaks no word of the plan tables across lines', async () => {
      expect(await wordsBrokenInTables(page)).toEqual([]);
    });

    it('draws no text of the authentication box over other text', async () => {
      expect(await overlappingTextInAuthentication(page)).toEqual([]);
    });

    it('draws no text of the "Test Request" window\'s authentication box over other text', async () => {
      expect(await overlappingTextInTestRequest(page, 'getRandomQuote')).toEqual([]);
    });

    it('shows the key field empty, with no placeholder that looks like a key', async () => {
      expect(await prefilledKeyField(page)).toEqual([]);
    });

    it("shows every one of each operation's response tabs whole, and selects it on a click", async () => {
      const unreachable: string[] = [];
      for (const operationId of operationIds()) unreachable.push(...(await unreachableResponseTabs(page, operationId)));
      expect(unreachable).toEqual([]);
      mkdirSync(outputDir, { recursive: true });
      await page.screenshot({ path: `${outputDir}docs-responses-${viewport.name}.png` });
    });
  });
});
