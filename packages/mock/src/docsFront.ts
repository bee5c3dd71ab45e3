import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { problemTypePrefix } from '@quotes/contract';
import express from 'express';
import { apiReferenceRouter } from '@quotes/docs';

export interface DocsFrontOptions {
  /** Origin everything but the reference is forwarded to, e.g. Prism's `http://127.0.0.1:43557`. */
  upstream: string;
  /** Port to listen on; 0 lets the OS pick one. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface RunningDocsFront {
  /** e.g. `http://127.0.0.1:4010`, without a trailing slash. */
  url: string;
  /** Stops listening and ends open connections. Safe to call more than once. */
  close(): Promise<void>;
}

/** Meaningful for one connection only (RFC 9110 §7.6.1): never forwarded in either direction. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * End-to-end headers as raw name/value pairs, so repeated headers (Set-Cookie) and the
 * spelling of names survive the hop. Framing is left to Node, which re-frames each side.
 */
function endToEndHeaders(message: IncomingMessage): string[] {
  const named = new Set(HOP_BY_HOP);
  for (const token of String(message.headers.connection ?? '').split(',')) {
    named.add(token.trim().toLowerCase());
  }
  const kept: string[] = [];
  const raw = message.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!;
    if (!named.has(name.toLowerCase())) kept.push(name, raw[index + 1]!);
  }
  return kept;
}

function upstreamUnavailable(res: ServerResponse, upstream: URL): void {
  const body = JSON.stringify({
    type: `${problemTypePrefix}service-unavailable`,
    title: 'Service unavailable',
    status: 503,
    detail: `The upstream server at ${upstream.origin} cannot be reached; please retry in a few seconds.`,
  });
  // The contract's 503 always says when to try again.
  res.writeHead(503, {
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(body),
    'Retry-After': '2',
  });
  res.end(body);
}

/** Streams the request to `upstream` and its answer back, status and headers as they came. */
function forwardTo(upstream: URL): (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => void {
  return (req, res) => {
    const headers = endToEndHeaders(req);
    headers.push('X-Forwarded-For', req.socket.remoteAddress ?? '', 'X-Forwarded-Proto', 'http');
    const outgoing = http.request({
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port,
      method: req.method,
      // Express rewrites req.url under a mount point; the upstream must see the path as sent.
      path: req.originalUrl ?? req.url,
      headers,
    });

    // A client that goes away must not leave the upstream working for nobody.
    res.once('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });

    outgoing.once('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEndHeaders(answer));
      pipeline(answer, res).catch(() => {
        // Either side hung up mid-body; the close handler above has already cleaned up.
      });
    });

    pipeline(req, outgoing).catch(() => {
      if (!res.headersSent) upstreamUnavailable(res, upstream);
      else res.destroy();
    });
  };
}

/**
 * A front server: the API reference (/docs, /openapi.yaml, /openapi.json, / -> /docs) answered
 * here, everything else streamed to `upstream`. It gives the Prism mock, which cannot serve
 * pages of its own, the same reference page as the real server at the same paths.
 */
export async function createDocsFront(options: DocsFrontOptions): Promise<RunningDocsFront> {
  const upstream = new URL(options.upstream);
  if (upstream.protocol !== 'http:')
    throw new Error(`createDocsFront: upstream must be http://, got ${options.upstream}`);

  const app = express();
  app.disable('x-powered-by');
  app.use(apiReferenceRouter());
  app.use(forwardTo(upstream));

  const server = http.createServer(app);
  server.listen(options.port, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
