import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractPath, loadContract } from '@quotes/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listening } from './support/listen.js';
import { startReferenceApp } from './support/referenceApp.js';

const swaggerUiDist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const initializerFile = fileURLToPath(new URL('../src/browser/swaggerInitializer.js', import.meta.url));

/** Every http(s) URL in `text` whose host is not this machine's loopback. */
function externalUrls(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s"'<>`)]+/g)]
    .map(([url]) => url)
    .filter((url) => !['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname));
}

/** The src/href attributes of the page: what a browser would fetch to render it. */
function referencedUrls(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href|data-spec-url)="([^"]+)"/g)].map(([, url]) => url!);
}

describe('apiReferenceRouter at the root', () => {
  let app: Listening;
  beforeAll(async () => {
    app = await startReferenceApp();
  });
  afterAll(() => app.close());

  it('serves the reference page at /docs, without a key', async () => {
    const response = await fetch(`${app.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('<title>Quote Retrieval Service: API reference</title>');
    expect(html).toContain('<div id="swagger-ui" data-spec-url="/openapi.json">');
    expect(html).toContain('<script src="/docs/assets/swagger-ui-bundle.js">');
    expect(html).toContain('<script src="/docs/assets/swagger-initializer.js">');
  });

  it('forbids, through its Content-Security-Policy, anything the serving origin does not serve', async () => {
    const policy = (await fetch(`${app.url}/docs`)).headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).toMatch(/connect-src 'self' http:\/\/127\.0\.0\.1:3000 http:\/\/127\.0\.0\.1:4010;/);
  });

  it('names no external host in the page or its initializer, so it works offline', async () => {
    const html = await (await fetch(`${app.url}/docs`)).text();
    const initializer = await (await fetch(`${app.url}/docs/assets/swagger-initializer.js`)).text();
    expect(externalUrls(html)).toEqual([]);
    expect(externalUrls(initializer)).toEqual([]);
    for (const url of referencedUrls(html)) expect(url.startsWith('/'), url).toBe(true);
  });

  it('serves every file the page references', async () => {
    const html = await (await fetch(`${app.url}/docs`)).text();
    const urls = referencedUrls(html);
    expect(urls.length).toBeGreaterThanOrEqual(5);
    for (const url of urls) {
      const response = await fetch(`${app.url}${url}`);
      expect(response.status, url).toBe(200);
      await response.arrayBuffer();
    }
  });

  it('serves Swagger UI from the installed swagger-ui-dist, byte for byte', async () => {
    const response = await fetch(`${app.url}/docs/assets/swagger-ui-bundle.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    const served = Buffer.from(await response.arrayBuffer());
    expect(served.equals(readFileSync(join(swaggerUiDist, 'swagger-ui-bundle.js')))).toBe(true);

    const css = Buffer.from(await (await fetch(`${app.url}/docs/assets/swagger-ui.css`)).arrayBuffer());
    expect(css.equals(readFileSync(join(swaggerUiDist, 'swagger-ui.css')))).toBe(true);
  });

  it('serves our initializer as written', async () => {
    const served = await (await fetch(`${app.url}/docs/assets/swagger-initializer.js`)).text();
    expect(served).toBe(readFileSync(initializerFile, 'utf8'));
  });

  it('does not serve swagger-ui-dist files the page does not use (its index.html points at the Petstore)', async () => {
    for (const name of ['index.html', 'swagger-initializer.js.map', 'package.json', '..%2Fpackage.json']) {
      const response = await fetch(`${app.url}/docs/assets/${name}`);
      expect(response.status, name).toBe(404);
      expect(await response.text()).toBe('not found by the test app');
    }
  });

  it('serves the contract file as is at /openapi.yaml', async () => {
    const response = await fetch(`${app.url}/openapi.yaml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.text()).toBe(readFileSync(contractPath, 'utf8'));
  });

  it('serves the same contract as JSON at /openapi.json', async () => {
    const response = await fetch(`${app.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const served = (await response.json()) as ReturnType<typeof loadContract>;
    expect(served).toEqual(loadContract());
    const operationIds = Object.values(served.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(operationIds).toEqual(['getRandomQuote', 'listQuotes', 'listFilterValues', 'getUsage']);
  });

  it('redirects / to /docs', async () => {
    const response = await fetch(`${app.url}/`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/docs');
  });

  it('leaves every other path to the app', async () => {
    for (const path of ['/v1/quotes-random', '/docs/other', '/openapi.yml']) {
      expect((await fetch(`${app.url}${path}`)).status, path).toBe(404);
    }
  });
});

describe('apiReferenceRouter under a mount path', () => {
  let app: Listening;
  beforeAll(async () => {
    app = await startReferenceApp('/reference');
  });
  afterAll(() => app.close());

  it('points every URL of the page below the mount path', async () => {
    const html = await (await fetch(`${app.url}/reference/docs`)).text();
    const urls = referencedUrls(html);
    expect(urls.length).toBeGreaterThanOrEqual(5);
    for (const url of urls) {
      expect(url.startsWith('/reference/'), url).toBe(true);
      expect((await fetch(`${app.url}${url}`)).status, url).toBe(200);
    }
  });

  it('redirects the mount point to its /docs', async () => {
    const response = await fetch(`${app.url}/reference/`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/reference/docs');
  });
});
