import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort, groupAlive } from './helpers.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('npm run mock', () => {
  it('serves the mock and the reference page on MOCK_HOST:MOCK_PORT, on the MOCK_PLAN plan, and stops with its process group', async () => {
    const port = await freePort();
    const child = spawn('npm', ['run', '--silent', 'mock'], {
      cwd: root,
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, MOCK_PORT: String(port), MOCK_HOST: '127.0.0.1', MOCK_PLAN: 'trial' },
    });
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
    const child = spawn('npm', ['run', '--silent', 'mock'], {
      cwd: root,
      detached: true,
      stdio: 'ignore',
      env: { ...env, PORT: String(port) },
    });
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

  it.each([
    [{ MOCK_PORT: 'forty' }, 'MOCK_PORT must be a port number'],
    [{ PORT: 'forty' }, 'quotes-mock: PORT must be a port number (0-65535), got "forty"'],
    [
      { MOCK_PLAN: 'gold' },
      'MOCK_PLAN: unknown plan "gold"; the plans are trial, starter, professional, platform, enterprise',
    ],
  ])('refuses %o in one line', async (variables, message) => {
    const child = spawn('npm', ['run', '--silent', 'mock'], {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...variables },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
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
