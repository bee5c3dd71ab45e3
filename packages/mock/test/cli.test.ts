import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort, groupAlive } from './helpers.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
/**
 * What `npm run mock` runs once turbo has brought the build up to date (npm start -w @quotes/mock):
 * the tests of how the bin reads its environment start it directly, without a turbo run each.
 */
const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** `npm run mock` from the checkout's root, as the README has it, or the bin it ends in. */
function startMockCommand(how: 'npm run mock' | 'bin', env: NodeJS.ProcessEnv, stderr: 'ignore' | 'pipe') {
  const [command, args] = how === 'bin' ? [process.execPath, [bin]] : ['npm', ['run', '--silent', 'mock']];
  return spawn(command, args, { cwd: root, detached: true, stdio: ['ignore', 'ignore', stderr], env });
}

describe('npm run mock, and the quotes-mock bin it ends in', () => {
  it('serves the mock and the reference page on MOCK_HOST:MOCK_PORT, on the MOCK_PLAN plan, and stops with its process group', async () => {
    const port = await freePort();
    const child = startMockCommand(
      'npm run mock',
      { ...process.env, MOCK_PORT: String(port), MOCK_HOST: '127.0.0.1', MOCK_PLAN: 'trial' },
      'ignore',
    );
    const exited = once(child, 'exit');
    try {
      const body = (await pollJson(`http://127.0.0.1:${port}/v1/quotes-categories`, 60_000)) as {
        categories: unknown[];
      };
      expect(body.categories).toHaveLength(43);
      // The trial plan's largest page.
      expect(await pollJson(`http://127.0.0.1:${port}/v1/quotes-filter?limit=1000`, 5_000)).toMatchObject({
        limit: 10,
      });
      // The same reference page as the server, at the same path.
      const docs = await fetch(`http://127.0.0.1:${port}/docs`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('/docs/assets/scalar-standalone.js');
      // The renderer, the initializer and the stylesheet were copied beside the bundle and are found there.
      for (const asset of ['scalar-standalone.js', 'reference-initializer.js', 'reference-page.css']) {
        const served = await fetch(`http://127.0.0.1:${port}/docs/assets/${asset}`);
        expect(served.status, asset).toBe(200);
        await served.body?.cancel();
      }
      const contract = await fetch(`http://127.0.0.1:${port}/openapi.json`);
      expect(((await contract.json()) as { info: { title: string } }).info.title).toBe('Quote Retrieval Service');
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
    // Prism must not outlive the npm script it was started by.
    await expect.poll(() => groupAlive(child.pid!), { timeout: 5_000 }).toBe(false);
  });

  it('listens on PORT when MOCK_PORT is not set, as a platform that hands out ports expects', async () => {
    const port = await freePort();
    const { MOCK_PORT: _ignored, ...env } = process.env;
    const child = startMockCommand('bin', { ...env, PORT: String(port) }, 'ignore');
    const exited = once(child, 'exit');
    try {
      expect(await pollJson(`http://127.0.0.1:${port}/v1/quotes-usage`, 60_000)).toMatchObject({
        tier: 'professional',
      });
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  });

  // One refusal through npm run mock shows its exit status comes through the script; the others
  // are the bin's reading of its environment.
  it.each([
    ['bin', { MOCK_PORT: 'forty' }, 'MOCK_PORT must be a port number'],
    ['bin', { PORT: 'forty' }, 'quotes-mock: PORT must be a port number (0-65535), got "forty"'],
    [
      'npm run mock',
      { MOCK_PLAN: 'gold' },
      'MOCK_PLAN: unknown plan "gold"; the plans are trial, starter, professional, platform, enterprise',
    ],
  ] as const)('refuses, started as %s, %o in one line', async (how, variables, message) => {
    const child = startMockCommand(how, { ...process.env, ...variables }, 'pipe');
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A mock that starts instead of refusing must not outlive the test.
    const stop = setTimeout(() => process.kill(-child.pid!, 'SIGTERM'), 40_000);
    const [code] = await once(child, 'exit');
    clearTimeout(stop);
    expect(code).not.toBe(0);
    expect(stderr).toContain(message);
  });
});

async function pollJson(url: string, timeoutMs: number): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { headers: { 'X-API-Key': 'qk_cli' } });
      return await response.json();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
