import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@quotes/database';
import { afterAll, describe, expect, it } from 'vitest';
import { captureAnswers, writeAnswers } from '../src/answerCapture.js';
import { startNodeProcess } from '../src/childProcess.js';

const floorScript = fileURLToPath(new URL('../dist/floorApp.js', import.meta.url));

/** Stands in for the server's answer: its own headers, a bare media type, a 304 without a body. */
const server = createServer((request, response) => {
  if (request.url === '/v1/quotes-categories') {
    response.writeHead(304, { ETag: '"abc"', 'Cache-Control': 'private, no-cache' });
    response.end();
    return;
  }
  response.setHeader('X-Request-Id', '0123456789abcdef');
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Content-Type', 'application/json');
  response.end('{"text":"A quote."}');
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops) await stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Status, headers (but Date, which moves) and body of one answer. */
async function answer(url: string) {
  const response = await fetch(url);
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'date'));
  return { status: response.status, headers, body: await response.text() };
}

describe('the same-bytes floor', () => {
  it('answers each URL with the status, headers and body the server answered it with', async () => {
    const paths = ['/v1/quotes-random', '/v1/quotes-categories'];
    const file = join(await mkdtemp(join(tmpdir(), 'quotes-bench-floor-')), 'answers.json');
    await writeAnswers(file, await captureAnswers(origin, paths, {}));
    const port = await freePort();
    const floor = await startNodeProcess(
      floorScript,
      [],
      { PORT: String(port), CAPTURED_ANSWERS: file },
      async () => (await fetch(`http://127.0.0.1:${port}/v1/quotes-random`)).ok,
    );
    stops.push(() => floor.stop());
    for (const path of paths)
      expect(await answer(`http://127.0.0.1:${port}${path}`), path).toEqual(await answer(`${origin}${path}`));
  }, 60_000);
});
