import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { CostWindow } from '../src/callCosts.js';
import { scenarios } from '../src/scenarios.js';

// The built module: its load runs start the built load worker (dist/loadWorker.js).
const { measureScenario } = (await import(
  new URL('../dist/scenarioRun.js', import.meta.url).href
)) as typeof import('../src/scenarioRun.js');

/** A real HTTP server that remembers each request's path and key, in the order they came. */
async function recordingServer(): Promise<{ server: Server; base: string; seen: Set<string> }> {
  const seen = new Set<string>();
  const server = createServer((request, response) => {
    seen.add(`${request.url} ${request.headers['x-api-key'] ?? '(no key)'}`);
    response.setHeader('Content-Type', 'application/json');
    response.end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
});

const noCosts = {
  window: (): CostWindow => ({ open: async () => {}, close: async () => {}, costs: async () => null }),
};

describe('a scenario against the floor', () => {
  it('sends the floor the very requests it sends the server: the same paths and keys', async () => {
    const server = await recordingServer();
    const floor = await recordingServer();
    servers.push(server.server, floor.server);
    const [random] = scenarios('/v1/quotes-filter?x', '/v1/quotes-random?y');
    const measured = await measureScenario({
      corpusSize: 3000,
      scenario: random!,
      paths: ['/v1/quotes-random', '/v1/quotes-random?category=love'],
      server: { base: server.base, pid: process.pid },
      floor: { base: floor.base, pid: process.pid },
      keys: ['qk_one', 'qk_two', 'qk_three'],
      rounds: 1,
      meter: noCosts,
      load: { connections: 2, durationSeconds: 1, warmupSeconds: 0 },
      log: () => {},
    });
    expect(measured.rounds).toHaveLength(1);
    expect(measured.floorRuns).toHaveLength(2);
    expect(server.seen.size).toBe(6);
    expect([...floor.seen].sort()).toEqual([...server.seen].sort());
  }, 60_000);
});
