import { connect, type Socket } from 'node:net';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bodyRateWindowMs,
  headersTimeoutMs,
  minBodyBytesPerSecond,
  slowClientCheckMs,
} from '../../src/http/slowClients.js';
import { type RunningServer, startServer } from '../../src/startServer.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { get } from '../../testing/serviceProcess.js';
import { testConfig } from '../../testing/testConfig.js';

/** The stated bounds (slowClients.ts): the deadline, the check that finds it, and one check for a late timer. */
const bodyCutBoundMs = bodyRateWindowMs + 2 * slowClientCheckMs;
const headersCutBoundMs = headersTimeoutMs + 2 * slowClientCheckMs;
/** What a client served beside the slow ones may take at most. */
const servedWithinMs = 1000;

let database: TestDatabase;
let server: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
  server = await startServer({
    config: testConfig(),
    database,
    shutdownGraceMs: 1000,
  });
});

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

interface Trickle {
  /** When the connection closed, in ms after `head` was written. */
  readonly closed: Promise<number>;
  /** Everything the server sent back. */
  received(): string;
  /** Ends the client's side (a connection the server failed to cut). */
  destroy(): void;
}

/**
 * A raw connection that sends `head` at once, then one byte of `rest` every `everyMs` until the
 * server closes it; the time is counted from the moment `head` was written.
 */
function trickle(head: string, rest: string, everyMs: number): Trickle {
  let from = 0;
  let text = '';
  const socket: Socket = connect(server.port, '127.0.0.1');
  const closed = new Promise<number>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    socket.once('connect', () => {
      socket.write(head);
      from = performance.now();
      let sent = 0;
      timer = setInterval(() => {
        if (sent < rest.length && !socket.destroyed) socket.write(rest[sent++]!);
      }, everyMs);
    });
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearInterval(timer);
      resolve(performance.now() - from);
    });
  });
  return { closed, received: () => text, destroy: () => socket.destroy() };
}

const postHead = (length: number) =>
  `POST /keys/requests HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('slow clients', () => {
  it(`a body slower than ${minBodyBytesPerSecond} B/s is cut within ${bodyCutBoundMs} ms, trickled headers within ${headersCutBoundMs} ms, and everyone else is served meanwhile`, async () => {
    const key = await server.operator.createKey({ client: 'Beside the slow ones', plan: 'starter' });
    const body = JSON.stringify({ email: 'slow@example.org', pad: 'x'.repeat(3000) });
    // 20 bytes a second: 50 times too slow. And bodies that stop after their first bytes.
    const slowBodies = Array.from({ length: 10 }, () => trickle(postHead(body.length), body, 50));
    const stalledBodies = Array.from({ length: 5 }, () => trickle(postHead(body.length) + body.slice(0, 10), '', 50));
    const slowHeaders = Array.from({ length: 10 }, () =>
      trickle('GET /v1/quotes-random HTTP/1.1\r\nHost: localhost\r\n', `X-Slow: ${'a'.repeat(200)}\r\n\r\n`, 200),
    );
    const silent = Array.from({ length: 5 }, () => trickle('', '', 1000));
    const slow = [...slowBodies, ...stalledBodies, ...slowHeaders, ...silent];

    let allClosed = false;
    void Promise.all(slow.map((client) => client.closed)).then(() => {
      allClosed = true;
    });
    const served: Array<{ status: number; ms: number }> = [];
    // Served until the slow ones are gone, or past their bound (then they failed, and are ended here).
    const givenUpAt = performance.now() + headersCutBoundMs + 2000;
    while (!allClosed && performance.now() < givenUpAt) {
      served.push(await get(`${server.url}/healthz`, {}));
      served.push(await get(`${server.url}/v1/quotes-random`, { 'X-API-Key': key.key }));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const client of slow) client.destroy();

    const bodyCuts = await Promise.all([...slowBodies, ...stalledBodies].map((client) => client.closed));
    const headerCuts = await Promise.all([...slowHeaders, ...silent].map((client) => client.closed));
    console.info(
      `slow clients: bodies cut after ${Math.round(Math.min(...bodyCuts))}-${Math.round(Math.max(...bodyCuts))} ms, ` +
        `headers after ${Math.round(Math.min(...headerCuts))}-${Math.round(Math.max(...headerCuts))} ms; ` +
        `${served.length} calls served meanwhile, slowest ${Math.round(Math.max(...served.map((answer) => answer.ms)))} ms`,
    );
    for (const cut of bodyCuts) {
      expect(cut).toBeGreaterThanOrEqual(bodyRateWindowMs - 50);
      expect(cut).toBeLessThan(bodyCutBoundMs);
    }
    for (const cut of headerCuts) {
      expect(cut).toBeGreaterThanOrEqual(headersTimeoutMs - 50);
      expect(cut).toBeLessThan(headersCutBoundMs);
    }
    // Cut with Node's own answer, as nothing had been answered on those connections.
    for (const client of [...slowBodies, ...stalledBodies, ...slowHeaders]) {
      expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    }
    expect(served.length).toBeGreaterThan(2 * (headersTimeoutMs / 1000));
    for (const answer of served) {
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(servedWithinMs);
    }
  }, 30_000);

  it(`a body at twice the least rate (${2 * minBodyBytesPerSecond} B/s) arrives whole and is answered`, async () => {
    const body = JSON.stringify({ email: 'steady@example.org', pad: 'x'.repeat(12_000) });
    const chunk = minBodyBytesPerSecond / 2;
    let text = '';
    const started = performance.now();
    const socket = connect(server.port, '127.0.0.1');
    const answered = new Promise<void>((resolve) => {
      socket.on('data', (data) => {
        text += data.toString();
        if (text.includes('\r\n\r\n')) resolve();
      });
      socket.on('close', () => resolve());
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(postHead(body.length));
    for (let at = 0; at < body.length; at += chunk) {
      socket.write(body.slice(at, at + chunk));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await answered;
    socket.destroy();
    const ms = performance.now() - started;
    // Longer than a window: the rate was checked while the body was arriving.
    expect(ms).toBeGreaterThan(bodyRateWindowMs);
    // The key request's own answer (its body is not a valid request), not a cut.
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
  }, 30_000);
});
