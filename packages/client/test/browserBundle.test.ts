import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { responseExample } from '@quotes/contract';
import { browserSkipReason, type Listening, launchChromium, listen } from '@quotes/docs/testing';
import { type RunningMock, startMock } from '@quotes/mock';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The client in a browser bundle: Vite builds it for the browser (no Node built-ins available),
// and Chromium runs that bundle against the real Prism mock, cross-origin as a frontend would.
const entry = fileURLToPath(new URL('./support/browserEntry.ts', import.meta.url));
let outDir: string;
let bundle: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'quotes-client-vite-'));
  await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      outDir,
      emptyOutDir: true,
      minify: true,
      rollupOptions: { input: entry, output: { entryFileNames: 'client.js', format: 'es' } },
    },
  });
  const files = await readdir(outDir);
  bundle = await readFile(join(outDir, files.find((file) => file.endsWith('.js'))!), 'utf8');
}, 120_000);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('the client bundled by Vite for the browser', () => {
  it('needs nothing from Node', () => {
    expect(bundle).not.toMatch(/["']node:/);
    expect(bundle).not.toMatch(/\bprocess\.env\b/);
    expect(bundle).not.toContain('__vite-browser-external');
  });

  describe.skipIf(browserSkipReason !== undefined)('in Chromium', () => {
    let mock: RunningMock;
    let page: Listening;
    let pageUrl: string;

    beforeAll(async () => {
      mock = await startMock();
      page = await listen((request, response) => {
        if (request.url === '/client.js') {
          response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle);
          return;
        }
        response
          .writeHead(200, { 'Content-Type': 'text/html' })
          .end('<!doctype html><title>client</title><script type="module" src="/client.js"></script>');
      });
      // Another origin than the mock's (localhost vs 127.0.0.1), so the calls are cross-origin.
      pageUrl = `${page.url.replace('127.0.0.1', 'localhost')}/`;
    });

    afterAll(async () => {
      await mock?.stop();
      await page?.close();
    });

    it('calls the mock and gets the typed quote and problem', async () => {
      const browser = await launchChromium();
      try {
        const tab = await browser.newPage();
        await tab.goto(pageUrl);
        await tab.waitForFunction(() => typeof window.quotesSmoke === 'function');
        const result = await tab.evaluate((baseUrl) => window.quotesSmoke(baseUrl), mock.url);
        expect(result).toEqual({
          text: (responseExample('/v1/quotes-random', '200') as { text: string }).text,
          problem: 'missing-api-key',
        });
      } finally {
        await browser.close();
      }
    });
  });
});
