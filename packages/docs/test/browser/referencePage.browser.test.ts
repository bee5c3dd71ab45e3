import { fileURLToPath } from 'node:url';
import { loadContract } from '@quotes/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  contractOperationLabels,
  type Listening,
  type OpenedReferencePage,
  openReferencePage,
  type ReferencePage,
} from '../../testing/index.js';
import { startReferenceApp } from '../support/referenceApp.js';

describe.skipIf(browserSkipReason !== undefined)(
  'the reference page in Chromium, with only the router behind it',
  () => {
    let app: Listening;
    let opened: OpenedReferencePage;
    let reference: ReferencePage;

    beforeAll(async () => {
      app = await startReferenceApp();
      opened = await openReferencePage(`${app.url}/`);
      ({ reference } = opened);
    });

    afterAll(async () => {
      await opened?.close();
      await app?.close();
    });

    it('lands on /docs from / and lists the operations in the sidebar', async () => {
      expect(new URL(reference.page.url()).pathname).toBe('/docs');
      expect(await reference.sidebarOperations()).toEqual(contractOperationLabels());
      expect(await reference.page.getByRole('heading', { level: 1 }).first().innerText()).toBe(
        'Quote Retrieval Service',
      );
    });

    it('finds an operation by a word of its summary', async () => {
      expect(await reference.search("calls in its allowance's period")).toContainEqual(
        expect.stringContaining('/v1/quotes-usage'),
      );
    });

    it('calls the origin that served the page', async () => {
      expect(await reference.selectedServer()).toBe(app.url);
    });

    it('offers curl, Python and the published JavaScript client as samples, all calling this origin', async () => {
      const samples = await reference.samples('listQuotes');
      expect(Object.keys(samples).sort()).toEqual(['@quotes/client', 'Python Requests', 'Shell Curl']);
      expect(samples['Shell Curl']).toBe(
        `curl '${app.url}/v1/quotes-filter?category=grief&limit=10&offset=0' \\\n  --header 'X-API-Key: YOUR_SECRET_TOKEN'`,
      );
      expect(samples['Python Requests']).toContain(`requests.get("${app.url}/v1/quotes-filter",`);
      expect(samples['Python Requests']).toContain('"X-API-Key": "YOUR_SECRET_TOKEN"');
      expect(samples['@quotes/client']).toContain("import { createQuotesClient } from '@quotes/client';");
      expect(samples['@quotes/client']).toContain(
        `createQuotesClient({ baseUrl: '${app.url}', apiKey: 'qk_YOUR_KEY' })`,
      );
      expect(samples['@quotes/client']).toContain(
        "await quotes.withMeta.listQuotes({ category: 'grief', limit: 10, offset: 0 });",
      );
      // The reader's last choice holds for every operation.
      expect((await reference.samples('getUsage'))['@quotes/client']).toContain('await quotes.getUsage();');
    });

    it('documents every response of each operation, errors with their problem types and headers', async () => {
      for (const pathItem of Object.values(loadContract().paths)) {
        const operation = (pathItem.get ?? pathItem.post) as {
          operationId: string;
          responses: Record<string, unknown>;
        };
        expect(await reference.documentedStatuses(operation.operationId), operation.operationId).toEqual(
          Object.keys(operation.responses),
        );
      }
      expect(await reference.documentedResponse('getRandomQuote', '403')).toContain('urn:quotes:problem:plan-limit');
      const exhausted = await reference.documentedResponse('getRandomQuote', '429');
      expect(exhausted).toContain('urn:quotes:problem:allowance-exhausted');
      expect(exhausted).toContain('Retry-After');
      expect(await reference.documentedResponse('getRandomQuote', '200')).toContain('X-RateLimit-Remaining');
    });

    it('links the contract files, which the same router serves', async () => {
      const links = reference.page.getByRole('main').getByRole('link', { name: /^openapi\.(yaml|json)$/ });
      const hrefs = await links.evaluateAll((elements) =>
        elements.map((element) => (element as unknown as { href: string }).href),
      );
      expect(hrefs).toEqual([`${app.url}/openapi.yaml`, `${app.url}/openapi.json`]);
      for (const href of hrefs) expect((await fetch(href)).status, href).toBe(200);
    });

    it('asked no other host for anything and raised no errors', async () => {
      await opened.screenshot(fileURLToPath(new URL('../../test-output/docs-page.png', import.meta.url)));
      expect(opened.offHost).toEqual([]);
      expect(opened.pageErrors).toEqual([]);
    });
  },
);
