import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fetch that goes over the network unchanged and remembers what was sent. */
export function recordingFetch(): { fetch: typeof globalThis.fetch; requests: Request[] } {
  const requests: Request[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const request = new Request(input, init);
    requests.push(request.clone());
    return globalThis.fetch(request);
  };
  return { fetch, requests };
}

export interface TestServer {
  url: string;
  requests: URL[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 for behaviour the Prism mock cannot produce. */
export async function startServer(
  handler: (url: URL, request: IncomingMessage, response: ServerResponse) => void,
): Promise<TestServer> {
  const requests: URL[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    handler(url, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const contentType = status >= 400 ? 'application/problem+json' : 'application/json';
  response.writeHead(status, { 'Content-Type': contentType, ...headers });
  response.end(JSON.stringify(body));
}
