import { createServer, type Server } from 'node:http';
import { listen } from '../listening.js';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves the registry at GET /metrics on a port of its own, so the metrics are never reachable
 * through the API's listener or its load balancer (loopback by default: METRICS_HOST).
 */
export async function serveMetrics(registry: Registry, port: number, host: string): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('metrics are at GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      (error: unknown) =>
        response
          .writeHead(500, { 'Content-Type': 'text/plain' })
          .end(`${error instanceof Error ? error.message : error}\n`),
    );
  });
  const address = await listen(server, port, host);
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}/metrics`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
