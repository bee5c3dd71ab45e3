import { createServer, request as httpRequest } from 'node:http';

export type Tamper = (path: string, status: number, body: unknown) => unknown;

/**
 * A reverse proxy that rewrites JSON bodies on the way back: a target that breaks the contract
 * in a controlled way, to prove the suite notices.
 */
export async function startTamperingProxy(
  upstream: string,
  tamper: Tamper,
): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(upstream);
  const server = createServer((incoming, outgoing) => {
    const forward = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          let body = Buffer.concat(chunks);
          const path = (incoming.url ?? '').split('?')[0] ?? '';
          try {
            body = Buffer.from(
              JSON.stringify(tamper(path, response.statusCode ?? 0, JSON.parse(body.toString('utf8')))),
            );
          } catch {
            // Not JSON: passed through untouched.
          }
          const headers = { ...response.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          outgoing.writeHead(response.statusCode ?? 502, headers).end(body);
        });
      },
    );
    forward.on('error', (error) => outgoing.writeHead(502).end(error.message));
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
