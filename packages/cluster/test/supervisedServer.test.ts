import { freePort } from '@quotes/database';
import { afterEach, describe, expect, it } from 'vitest';
import { type Child, startChild, waitUntilReady } from '../src/childProcess.js';
import type { ServerProcess, ServerSpec } from '../src/serverProcess.js';
import { SupervisedServer } from '../src/supervisedServer.js';

/**
 * The supervisor over real processes: a small HTTP program stands in for the server (ready when
 * its /readyz answers 200), so exits, kills and restarts are the operating system's own.
 */
const program = `
  if (process.env.FAIL_AT_START) process.exit(3);
  require('node:http')
    .createServer((request, response) => response.writeHead(process.env.NEVER_READY ? 503 : 200).end())
    .listen(Number(process.env.PORT), '127.0.0.1');
`;

/** What the next start runs: a server, one that exits at once, or one never ready. */
let behaviour: 'serve' | 'fail' | 'never ready' = 'serve';
const spawned: Child[] = [];
let supervised: SupervisedServer | undefined;

afterEach(async () => {
  await supervised?.close();
  await Promise.all(spawned.map((child) => child.stop('SIGKILL')));
  spawned.length = 0;
  behaviour = 'serve';
});

async function start(spec: ServerSpec, onSpawn: (child: Child) => void): Promise<ServerProcess> {
  const child = startChild(process.execPath, ['-e', program], {
    env: {
      ...process.env,
      PORT: String(spec.port),
      ...(behaviour === 'fail' ? { FAIL_AT_START: '1' } : {}),
      ...(behaviour === 'never ready' ? { NEVER_READY: '1' } : {}),
    },
  });
  spawned.push(child);
  onSpawn(child);
  const url = `http://127.0.0.1:${spec.port}`;
  await waitUntilReady(
    `server ${spec.name}`,
    child,
    async () => (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) })).status === 200,
    10_000,
  );
  return { ...spec, url, metricsUrl: `${url}/metrics`, child };
}

async function supervise(progress: string[]): Promise<SupervisedServer> {
  supervised = new SupervisedServer(
    { name: 's1', port: await freePort(), metricsPort: 0 },
    { start, stopWithinMs: 2000, balanced: async () => undefined, progress: (line) => progress.push(line) },
  );
  await supervised.start();
  return supervised;
}

async function until(done: () => boolean, withinMs: number): Promise<number> {
  const started = performance.now();
  while (!done()) {
    if (performance.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - started;
}

const running = () => spawned.filter((child) => !child.exited);

describe('a server of the cluster under supervision', () => {
  it('is started again on its port after an exit it was not asked for, 1 s later, and says so', async () => {
    const progress: string[] = [];
    const server = await supervise(progress);
    const killed = server.server.child;
    killed.process.kill('SIGKILL');
    const tookMs = await until(() => server.restarts === 1, 10_000);
    expect(tookMs).toBeGreaterThanOrEqual(1000);
    expect(server.server.child).not.toBe(killed);
    expect((await fetch(`${server.server.url}/readyz`)).status).toBe(200);
    expect(progress[0]).toBe('server s1 exited (SIGKILL) without being asked; starting it again in 1.0 s');
    expect(progress[1]).toMatch(/^server s1 started again \(pid \d+\), ready \d+\.\d s after it exited$/);
    expect(progress[2]).toMatch(/^HAProxy has server s1 UP again/);
  });

  it('waits twice as long after each start that fails, and stops trying once closed', async () => {
    const progress: string[] = [];
    const server = await supervise(progress);
    behaviour = 'fail';
    server.server.child.process.kill('SIGKILL');
    await until(() => progress.length === 3, 10_000);
    expect(progress).toEqual([
      'server s1 exited (SIGKILL) without being asked; starting it again in 1.0 s',
      expect.stringMatching(/^server s1 did not start \(server s1 exited at start.*\); starting it again in 2\.0 s$/),
      expect.stringMatching(/^server s1 did not start .*; starting it again in 4\.0 s$/),
    ]);
    const starts = spawned.length;
    await server.close();
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect(spawned.length).toBe(starts);
    expect(server.restarts).toBe(0);
  });

  it('starts no second process after a restart it was asked for', async () => {
    const progress: string[] = [];
    const server = await supervise(progress);
    const first = server.server.child;
    await server.restart();
    expect(first.exited).toBe(true);
    expect(first.process.signalCode).toBe('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(running()).toEqual([server.server.child]);
    expect(server.restarts).toBe(0);
    expect(progress).toEqual([]);
  });

  it('cuts a start under way short when closed, and leaves nothing running', async () => {
    const progress: string[] = [];
    const server = await supervise(progress);
    behaviour = 'never ready';
    server.server.child.process.kill('SIGKILL');
    await until(() => spawned.length === 2, 5000);
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(running()).toEqual([]);
    expect(progress).toEqual(['server s1 exited (SIGKILL) without being asked; starting it again in 1.0 s']);
  });
});
