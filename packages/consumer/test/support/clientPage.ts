import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

/** What the page exposes to the test: one call through the installed client, as a frontend makes it. */
export interface PageWindow {
  callQuotes(baseUrl: string, apiKey: string): Promise<PageOutcome>;
}

export interface PageOutcome {
  ok: boolean;
  status: number;
  code?: string;
  detail?: string;
  allowanceLimit?: number;
  remaining?: number;
  requestId?: string | null;
}

// The page imports '@quotes/client' as a frontend's bundler would resolve it: the installed
// package's own dist files, through an import map (the client has no dependencies).
const pageHtml = `<!doctype html>
<title>quotes page</title>
<script type="importmap">{ "imports": { "@quotes/client": "/client/index.js" } }</script>
<script type="module">
  import { createQuotesClient, QuotesProblemError } from '@quotes/client';
  window.callQuotes = async (baseUrl, apiKey) => {
    const quotes = createQuotesClient({ baseUrl, apiKey, timeoutMs: 5000 });
    try {
      const result = await quotes.withMeta.getRandomQuote({ category: 'grief' });
      return {
        ok: true,
        status: result.response.status,
        allowanceLimit: result.rateLimit?.limit,
        remaining: result.rateLimit?.remaining,
        requestId: result.response.headers.get('x-request-id'),
      };
    } catch (error) {
      if (!(error instanceof QuotesProblemError)) return { ok: false, status: 0, detail: String(error) };
      return { ok: false, status: error.status, code: error.code, detail: error.detail, requestId: error.instance };
    }
  };
</script>`;

/** Serves the page and the client's files from 127.0.0.1 on a port of its own: another origin than any API. */
export async function servePage(clientDist: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    if (path === '/') {
      response.writeHead(200, { 'Content-Type': 'text/html' }).end(pageHtml);
      return;
    }
    const file = normalize(path.replace(/^\/client\//, ''));
    if (!path.startsWith('/client/') || file.startsWith('..') || !file.endsWith('.js')) {
      response.writeHead(404).end();
      return;
    }
    readFile(join(clientDist, file)).then(
      (body) => response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
