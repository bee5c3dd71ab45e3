import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// What `npm run cluster` runs once built (`npm test` builds before it tests).
const clusterMain = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** `npm run cluster`'s program, with `env` added; its exit code and stderr. */
async function cluster(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await promisify(execFile)(process.execPath, [clusterMain, ...args], {
      env: { ...process.env, ...env },
      timeout: 20_000,
    });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('npm run cluster, refusing to start', () => {
  it('names the apt package of a missing tool in one line, before starting anything', async () => {
    const { code, stderr } = await cluster([], { HAPROXY_PATH: '/nonexistent/haproxy' });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/HAPROXY_PATH=\/nonexistent\/haproxy .*\(apt-get install haproxy\)/);
  }, 30_000);

  it('names a bad option in one line', async () => {
    const { code, stderr } = await cluster(['--servers', '0'], {});
    expect(code).toBe(1);
    expect(stderr.trim()).toBe("quotes cluster: --servers must be a whole number from 1 to 9; got '0'");
  }, 30_000);
});
