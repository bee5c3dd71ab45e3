import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built module: it runs the built load worker (dist/loadWorker.js) in a process of its own.
const { runLoad } = (await import(
  new URL('../dist/loadRun.js', import.meta.url).href
)) as typeof import('../src/loadRun.js');
const { runningChildren } = (await import(
  new URL('../dist/childProcess.js', import.meta.url).href
)) as typeof import('../src/childProcess.js');

/** A real HTTP server that counts the requests it answered and remembers the keys it was sent. */
let answered = 0;
const keysSeen = new Set<string>();
const server = createServer((request, response) => {
  answered++;
  const key = request.headers['x-api-key'];
  if (typeof key === 'string') keysSeen.add(key);
  response.setHeader('Content-Type', 'application/json');
  response.end('{"quote":"x"}');
});
let origin = '';

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('runLoad', () => {
  it('opens the window after the warm-up, in the same load generator process, and closes it after the measured run', async () => {
    let atOpen = -1;
    let atClose = -1;
    const connections = 4;
    const result = await runLoad(
      { origin, paths: ['/v1/quotes-random'], keys: ['k1', 'k2'], connections, durationSeconds: 1, warmupSeconds: 1 },
      {
        open: async () => {
          atOpen = answered;
        },
        close: async () => {
          atClose = answered;
        },
      },
    );
    // The warm-up's calls came before the window, the measured run's inside it.
    expect(atOpen).toBeGreaterThan(0);
    expect(result.requests).toBeGreaterThan(0);
    expect(atClose - atOpen).toBeGreaterThanOrEqual(result.requests);
    // Past its count, at most the calls in flight when the warm-up stopped (reaching the server
    // after the window opened) and when the measured run stopped.
    expect(atClose - atOpen).toBeLessThanOrEqual(result.requests + 2 * connections);
    expect([...keysSeen].sort()).toEqual(['k1', 'k2']);
    // The load generator's own CPU over the measured second.
    expect(result.loadGeneratorCpuMicros).toBeGreaterThan(0);
    expect(result.seconds).toBeGreaterThan(0.5);
    expect(result.seconds).toBeLessThan(3);
  }, 60_000);

  it('lasts a fraction of a second when asked to', async () => {
    const result = await runLoad({ origin, paths: ['/'], connections: 2, durationSeconds: 0.3, warmupSeconds: 0 });
    expect(result.requests).toBeGreaterThan(0);
    // Ended on the load generator's first sample past 0.3 s, not on a whole second.
    expect(result.seconds).toBeGreaterThan(0.25);
    expect(result.seconds).toBeLessThan(0.8);
  }, 60_000);

  it('closes the window of a run by amount soon after its last answer, not on the next whole second', async () => {
    let openedAt = 0;
    let closedAt = 0;
    const result = await runLoad(
      { origin, paths: ['/'], connections: 2, durationSeconds: 1, warmupSeconds: 0, amount: 50 },
      {
        open: async () => {
          openedAt = performance.now();
        },
        close: async () => {
          closedAt = performance.now();
        },
      },
    );
    expect(result.requests).toBe(50);
    // What the window holds past the measured run: the worker's last sample, its result and its exit.
    expect(closedAt - openedAt - (result.seconds ?? 0) * 1000).toBeLessThan(500);
  }, 60_000);

  it('keeps its load generator process for the next run', async () => {
    await runLoad({ origin, paths: ['/'], connections: 1, durationSeconds: 0.2, warmupSeconds: 0 });
    const afterOne = [...runningChildren];
    // Between runs: one process, still running, waiting for the next.
    expect(afterOne).toHaveLength(1);
    expect(afterOne[0]?.exitCode).toBeNull();
    await runLoad({ origin, paths: ['/'], connections: 1, durationSeconds: 0.2, warmupSeconds: 0 });
    expect([...runningChildren]).toEqual(afterOne);
  }, 60_000);

  it('fails with the error of a window that cannot open, instead of hanging the run', async () => {
    await expect(
      runLoad(
        { origin, paths: ['/'], connections: 1, durationSeconds: 1, warmupSeconds: 0 },
        {
          open: async () => {
            throw new Error('the meter is gone');
          },
          close: async () => {},
        },
      ),
    ).rejects.toThrow('the meter is gone');
  }, 60_000);
});
