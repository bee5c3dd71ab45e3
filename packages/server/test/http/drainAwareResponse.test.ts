import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainAwareResponses } from '../../src/http/drainAwareResponse.js';

// Every way a handler can write a head, on a real Express app behind a real HTTP server: Express
// gives each response its own prototype, so a hook anywhere else would be silently bypassed.
const lifecycle = { draining: false };
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  drainAwareResponses(app, lifecycle);
  app.get('/json', (_request, response) => {
    response.json({ ok: true });
  });
  app.get('/end', (_request, response) => {
    response.setHeader('Content-Type', 'application/json');
    response.end('{}');
  });
  app.get('/head-with-headers', (_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end('x');
  });
  app.get('/head-with-reason', (_request, response) => {
    response.writeHead(201, 'Made', { 'Content-Type': 'text/plain' }).end('x');
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const paths = ['/json', '/end', '/head-with-headers', '/head-with-reason', '/not-routed'];

async function connectionHeaders(): Promise<Record<string, string | null>> {
  const found: Record<string, string | null> = {};
  for (const path of paths) {
    const answer = await fetch(`${base}${path}`);
    await answer.arrayBuffer();
    found[path] = answer.headers.get('connection');
  }
  return found;
}

describe('drainAwareResponses', () => {
  it('keeps connections alive while the server runs, and closes them from the first head written after a drain starts', async () => {
    lifecycle.draining = false;
    expect(Object.values(await connectionHeaders())).toEqual(paths.map(() => 'keep-alive'));
    lifecycle.draining = true;
    expect(Object.values(await connectionHeaders())).toEqual(paths.map(() => 'close'));
  });

  it('leaves status, reason and headers as the handler wrote them', async () => {
    lifecycle.draining = true;
    const answer = await fetch(`${base}/head-with-reason`);
    expect([answer.status, answer.statusText, answer.headers.get('content-type'), await answer.text()]).toEqual([
      201,
      'Made',
      'text/plain',
      'x',
    ]);
  });
});
