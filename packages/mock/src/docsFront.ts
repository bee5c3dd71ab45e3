import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { problemTypePrefix } from '@quotes/contract';
import express from 'express';
import { apiReferenceRouter } from '@quotes/docs';
import { allowanceHeaderNames, liveAllowance, requestIdOf, requestIds, serverParity } from './serverParity.js';

export interface DocsFrontOptions {
  /** Origin everything but the reference is forwarded to, e.g. Prism's `http://127.0.0.1:43557`. */
  upstream: string;
  /** Port to listen on; 0 lets the OS pick one. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Refuse what the server refuses without data, answer CORS as it does (default true); false
   * for a plain reference-page proxy in front of another upstream (a real server).
   */
  serverParity?: boolean;
  /** Answer the operations from the mock's example quotes, fitting the filters (default true). */
  examples?: boolean;
  /** The plan every key is taken to be on: its largest page, allowance and filters (default `professional`). */
  plan?: string;
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
function endToEndHeaders(message: IncomingMessage, dropped: readonly string[] = []): string[] {
  const named = new Set([...HOP_BY_HOP, ...dropped]);
  for (const token of String(message.headers.connection ?? '').split(',')) {
    named.add(token.trim().toLowerCase());
  }
  const kept: string[] = [];
  const raw = message.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!;
    const lower = name.toLowerCase();
    if (!named.has(lower) && !lower.startsWith('access-control-')) kept.push(name, raw[index + 1]!);
  }
  return kept;
}

function upstreamUnavailable(res: ServerResponse, upstream: URL): void {
  const instance = requestIdOf(res);
  const body = JSON.stringify({
    type: `${problemTypePrefix}service-unavailable`,
    title: 'Service unavailable',
    status: 503,
    detail: `The upstream server at ${upstream.origin} cannot be reached; please retry in a few seconds.`,
    ...(instance ? { instance } : {}),
  });
  // The contract's 503 always says when to try again.
  res.writeHead(503, {
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(body),
    'Retry-After': '2',
  });
  res.end(body);
}

/** A problem body (small) given the request id the front sent as its `instance`, as the server's are. */
function withInstance(answer: IncomingMessage, res: ServerResponse, headers: string[], instance: string): void {
  const chunks: Buffer[] = [];
  answer.on('data', (chunk: Buffer) => chunks.push(chunk));
  answer.once('error', () => res.destroy());
  answer.once('end', () => {
    let body = Buffer.concat(chunks);
    try {
      body = Buffer.from(JSON.stringify({ ...JSON.parse(body.toString('utf8')), instance }));
    } catch {
      // Not JSON after all: passed on as it came.
    }
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, [...headers, 'Content-Length', String(body.length)]);
    res.end(body);
  });
}

/** Streams the request to `upstream` and its answer back, status and headers as they came. */
function forwardTo(upstream: URL): (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => void {
  return (req, res) => {
    // `Prefer: code=N` picks a documented answer whatever the page accepts: Prism would answer
    // 500 when that answer's media type (problem+json) is not in Accept.
    const picksCode = /\bcode\s*=/.test(String(req.headers.prefer ?? ''));
    const headers = endToEndHeaders(req, picksCode ? ['accept'] : []);
    headers.push('X-Forwarded-For', req.socket.remoteAddress ?? '', 'X-Forwarded-Proto', 'http');
    const outgoing = http.request({
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port,
      // HEAD is GET without a body (the front's response drops it); Prism answers GET.
      method: req.method === 'HEAD' ? 'GET' : req.method,
      // Express rewrites req.url under a mount point; the upstream must see the path as sent.
      path: req.originalUrl ?? req.url,
      headers,
    });

    // A client that goes away must not leave the upstream working for nobody.
    res.once('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });

    outgoing.once('response', (answer) => {
      // The front's own allowance headers, for a call it counts, replace the contract's examples.
      const allowance = liveAllowance(res, answer.statusCode ?? 502);
      const dropped = allowance ? allowanceHeaderNames : [];
      const instance = requestIdOf(res);
      if (instance && answer.headers['content-type'] === 'application/problem+json') {
        const headers = endToEndHeaders(answer, [...dropped, 'content-length']);
        withInstance(answer, res, [...headers, ...Object.entries(allowance ?? {}).flat()], instance);
        return;
      }
      const headers = [...endToEndHeaders(answer, dropped), ...Object.entries(allowance ?? {}).flat()];
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
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
 * here, the server's data-free refusals and CORS answers made here (serverParity.ts), everything
 * else streamed to `upstream`. It gives the Prism mock, which cannot serve
 * pages of its own, the same reference page as the real server at the same paths.
 */
export async function createDocsFront(options: DocsFrontOptions): Promise<RunningDocsFront> {
  const upstream = new URL(options.upstream);
  if (upstream.protocol !== 'http:')
    throw new Error(`createDocsFront: upstream must be http://, got ${options.upstream}`);

  const app = express();
  app.disable('x-powered-by');
  const parity = options.serverParity !== false;
  // As on the server, every answer (the reference page's too) carries a request id.
  if (parity) app.use(requestIds);
  app.use(apiReferenceRouter({ mock: parity }));
  if (parity) app.use(await serverParity({ examples: options.examples, plan: options.plan }));
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
