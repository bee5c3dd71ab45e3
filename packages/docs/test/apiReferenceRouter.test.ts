import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractPath, describedContract, loadContract } from '@quotes/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Listening } from '../testing/index.js';
import { startReferenceApp } from './support/referenceApp.js';

const scalarDist = join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser');
const initializerFile = fileURLToPath(new URL('../src/browser/referenceInitializer.js', import.meta.url));
const stylesheetFile = fileURLToPath(new URL('../src/browser/referencePage.css', import.meta.url));

/** Every http(s) URL in `text` whose host is not this machine's loopback. */
function externalUrls(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s"'<>`)]+/g)]
    .map(([url]) => url)
    .filter((url) => !['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname));
}

/** The src/href attributes of the page: what a browser would fetch to render it. */
function referencedUrls(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href|data-document-url)="([^"]+)"/g)].map(([, url]) => url!);
}

const servedBy = 'The server that served this document';

/** The `servers` URL of /openapi.json asked for with this exact Host header (fetch would not send a bad one). */
function servedServer(port: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const asked = request({ host: '127.0.0.1', port, path: '/openapi.json', headers: { Host: host }, timeout: 10_000 });
    asked.on('timeout', () => asked.destroy(new Error('no answer within 10 s')));
    asked.on('error', reject);
    asked.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve((JSON.parse(body) as { servers: Array<{ url: string }> }).servers[0]!.url));
    });
    asked.end();
  });
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
    expect(html).toContain('data-document-url="/docs/reference.json"');
    expect(html).toContain('<script src="/docs/assets/scalar-standalone.js">');
    expect(html).toContain('<script src="/docs/assets/reference-initializer.js">');
    expect(html).toContain('<link rel="stylesheet" href="/docs/assets/reference-page.css">');
    // No inline script: the policy forbids them.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it('forbids, through its Content-Security-Policy, anything the serving origin does not serve', async () => {
    const policy = (await fetch(`${app.url}/docs`)).headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self';");
    // The renderer injects <style> elements and style attributes (the README says why no nonce).
    expect(policy).toContain("style-src 'self' 'unsafe-inline';");
    expect(policy).toContain("font-src 'self' data:;");
    expect(policy).toMatch(/connect-src 'self' http:\/\/127\.0\.0\.1:3000 http:\/\/127\.0\.0\.1:4010;/);
  });

  it('names no external host in the page, its initializer or its stylesheet, so it works offline', async () => {
    const html = await (await fetch(`${app.url}/docs`)).text();
    const initializer = await (await fetch(`${app.url}/docs/assets/reference-initializer.js`)).text();
    const stylesheet = await (await fetch(`${app.url}/docs/assets/reference-page.css`)).text();
    expect(externalUrls(html)).toEqual([]);
    expect(externalUrls(initializer)).toEqual([]);
    expect(externalUrls(stylesheet)).toEqual([]);
    for (const url of referencedUrls(html)) expect(url.startsWith('/'), url).toBe(true);
  });

  it('serves every file the page references', async () => {
    const html = await (await fetch(`${app.url}/docs`)).text();
    const urls = referencedUrls(html);
    expect(urls.length).toBe(4);
    for (const url of urls) {
      const response = await fetch(`${app.url}${url}`);
      expect(response.status, url).toBe(200);
      await response.arrayBuffer();
    }
  });

  it("serves Scalar's standalone bundle from the installed @scalar/api-reference, byte for byte", async () => {
    const response = await fetch(`${app.url}/docs/assets/scalar-standalone.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const served = Buffer.from(await response.arrayBuffer());
    expect(served.equals(readFileSync(join(scalarDist, 'standalone.js')))).toBe(true);
  });

  it('serves our initializer as written', async () => {
    const served = await (await fetch(`${app.url}/docs/assets/reference-initializer.js`)).text();
    expect(served).toBe(readFileSync(initializerFile, 'utf8'));
  });

  it('serves our stylesheet as written, as CSS', async () => {
    const response = await fetch(`${app.url}/docs/assets/reference-page.css`);
    expect(response.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await response.text()).toBe(readFileSync(stylesheetFile, 'utf8'));
  });

  it('does not serve other files of the renderer package (its source map, its chunks, its manifest)', async () => {
    for (const name of ['standalone.js.map', 'standalone.esm.js', 'package.json', '..%2Fpackage.json', 'style.css']) {
      const response = await fetch(`${app.url}/docs/assets/${name}`);
      expect(response.status, name).toBe(404);
      expect(await response.text()).toBe('not found by the test app');
    }
  });

  it('serves the contract file at /openapi.yaml, naming the origin that served it as its server', async () => {
    const response = await fetch(`${app.url}/openapi.yaml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const text = await response.text();
    // The port is the one the OS gave this test, not the contract's 3000.
    expect(new URL(app.url).port).not.toBe('3000');
    expect(parse(text)).toEqual({ ...loadContract(), servers: [{ url: app.url, description: servedBy }] });
    // Everything outside the servers list is the file as written, comments included.
    const file = readFileSync(contractPath, 'utf8');
    expect(text.slice(0, text.indexOf('servers:'))).toBe(file.slice(0, file.indexOf('servers:')));
    expect(text.slice(text.indexOf('\nsecurity:'))).toBe(file.slice(file.indexOf('\nsecurity:')));
  });

  it('serves the same contract as JSON at /openapi.json, with the same server', async () => {
    const response = await fetch(`${app.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const served = (await response.json()) as ReturnType<typeof loadContract>;
    expect(served).toEqual({ ...describedContract(), servers: [{ url: app.url, description: servedBy }] });
    const operationIds = Object.values(served.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(operationIds).toEqual(['getRandomQuote', 'listQuotes', 'listFilterValues', 'getUsage', 'requestKey']);
  });

  it('takes the origin from the Host the request was sent to, and the socket when Host is not a host', async () => {
    const port = new URL(app.url).port;
    expect(await servedServer(port, `quotes.example.test:${port}`)).toBe(`http://quotes.example.test:${port}`);
    expect(await servedServer(port, `[::1]:${port}`)).toBe(`http://[::1]:${port}`);
    for (const host of ['evil.test/path', 'a"b', `${'a'.repeat(300)}.test`, '']) {
      expect(await servedServer(port, host), host).toBe(`http://127.0.0.1:${port}`);
    }
  });

  it('serves the document the page renders at /docs/reference.json: the contract with a client sample per operation', async () => {
    const response = await fetch(`${app.url}/docs/reference.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const rendered = (await response.json()) as ReturnType<typeof loadContract>;
    const contract = describedContract();
    expect(Object.keys(rendered.paths)).toEqual(Object.keys(contract.paths));
    expect({ ...rendered.info, description: undefined }).toEqual({ ...contract.info, description: undefined });
    expect(rendered.components.schemas).toEqual(contract.components.schemas);
    for (const pathItem of Object.values(rendered.paths)) {
      const operation = (pathItem.get ?? pathItem.post) as {
        'x-codeSamples'?: Array<{ label: string; source: string }>;
      };
      expect(operation['x-codeSamples']?.map((sample) => sample.label)).toEqual(['@quotes/client']);
    }
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
    expect(urls.length).toBe(4);
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
