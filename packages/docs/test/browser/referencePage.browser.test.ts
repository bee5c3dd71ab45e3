import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadContract } from '@quotes/contract';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchChromium, ReferencePage } from '../../src/testing/index.js';
import type { Listening } from '../support/listen.js';
import { startReferenceApp } from '../support/referenceApp.js';

const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));

describe.skipIf(browserSkipReason !== undefined)(
  'the reference page in Chromium, with only the router behind it',
  () => {
    let app: Listening;
    let browser: Browser;
    let context: BrowserContext;
    let reference: ReferencePage;
    /** Requests to any host but this machine, refused before they leave. */
    const offHost: string[] = [];
    const pageErrors: string[] = [];

    beforeAll(async () => {
      app = await startReferenceApp();
      browser = await launchChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 1400 } });
      await context.route('**/*', (route) => {
        const { hostname } = new URL(route.request().url());
        if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue();
        offHost.push(route.request().url());
        return route.abort('internetdisconnected');
      });
      const page = await context.newPage();
      // Uncaught exceptions and console errors, Content-Security-Policy violations among them.
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') pageErrors.push(message.text());
      });
      reference = new ReferencePage(page);
      await reference.open(`${app.url}/`);
    });

    afterAll(async () => {
      await browser?.close();
      await app?.close();
    });

    it('lands on /docs from / and renders the four operations', async () => {
      expect(new URL(reference.page.url()).pathname).toBe('/docs');
      expect(await reference.operationPaths()).toEqual([
        '/v1/quotes-random',
        '/v1/quotes-filter',
        '/v1/quotes-categories',
        '/v1/quotes-usage',
      ]);
      expect(await reference.page.locator('.info .title').textContent()).toContain('Quote Retrieval Service');
    });

    it("offers the serving origin first, then the contract's servers", async () => {
      const servers = await reference.servers();
      expect(servers[0]).toBe(`${app.url} - This server (the one serving this page)`);
      expect(servers.slice(1)).toEqual([
        'http://127.0.0.1:3000 - The server started by `npm start`',
        'http://127.0.0.1:4010 - The Prism mock started by `npm run mock`',
      ]);
    });

    it('documents every response of each operation, errors with their problem types', async () => {
      // Every status the contract documents for each operation, read from the contract itself.
      const contract = loadContract();
      for (const pathItem of Object.values(contract.paths)) {
        const operation = pathItem?.get as { operationId: string; responses: Record<string, unknown> };
        expect(await reference.documentedStatuses(operation.operationId), operation.operationId).toEqual(
          Object.keys(operation.responses).sort(),
        );
      }
      expect(await reference.documentedStatuses('listFilterValues')).toContain('304');
      expect(await reference.documentedResponse('getRandomQuote', '403')).toContain('urn:quotes:problem:plan-limit');
      expect(await reference.documentedResponse('getRandomQuote', '429')).toContain(
        'urn:quotes:problem:allowance-exhausted',
      );
      expect(await reference.documentedResponse('getRandomQuote', '200')).toContain('X-RateLimit-Remaining');
    });

    it('offers both of the contract security schemes under Authorize', async () => {
      await reference.page.locator('.auth-wrapper .authorize').click();
      const dialog = reference.page.locator('.modal-ux');
      expect(await dialog.textContent()).toContain('ApiKeyHeader');
      expect(await dialog.textContent()).toContain('BearerAuth');
      await dialog.locator('.close-modal').click();
    });

    it('asked no other host for anything and raised no errors', async () => {
      mkdirSync(outputDir, { recursive: true });
      await reference.page.screenshot({ path: `${outputDir}docs-page.png` });
      expect(offHost).toEqual([]);
      expect(pageErrors).toEqual([]);
    });
  },
);
