import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { browserSkipReason, launchChromium, readabilityProblems, readingViewports } from '@quotes/docs/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/index.js';
import { testConfig } from '../../testing/testConfig.js';

const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));

// Each size walks every response tab of every operation (about 25 s alone): a deadline of its own.
describe.skipIf(browserSkipReason !== undefined)(
  '/docs on the real server reads well in Chromium',
  { timeout: 120_000 },
  () => {
    let database: TestDatabase;
    let server: RunningServer;
    let browser: Browser;

    beforeAll(async () => {
      // The page needs no quotes and no key: an empty database serves it.
      database = await createTestDatabase();
      server = await startServer({
        config: testConfig(),
        database,
        shutdownGraceMs: 2000,
      });
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await database?.drop();
    });

    it.each(readingViewports)(
      'at $name: no word of the plan tables split, no text over other text in the authentication boxes, an empty key field, every response tab visible and clickable',
      async (viewport) => {
        const page = await browser.newPage({ viewport });
        try {
          expect((await page.goto(`${server.url}/docs`))?.status()).toBe(200);
          mkdirSync(outputDir, { recursive: true });
          await page.screenshot({ path: `${outputDir}docs-introduction-${viewport.name}.png` });
          expect(await readabilityProblems(page)).toEqual([]);
        } finally {
          await page.close();
        }
      },
    );
  },
);
