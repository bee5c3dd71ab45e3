import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type ExpectStatic, expect as globalExpect } from 'vitest';

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface AdminCli {
  /** The bundled CLI, for runs that need more than run() (a terminal). */
  readonly entry: string;
  /** The CLI as an operator runs it: its own process, with this environment added to the test's. */
  run(env: Record<string, string>, ...args: string[]): Promise<Run>;
  remove(): Promise<void>;
}

/**
 * The CLI from the current sources, compiled once: through a TypeScript loader every spawn
 * costs seconds of module loading, as plain JavaScript a fraction of one. Bundled inside the
 * package so its dependencies resolve from node_modules as they do for dist/.
 */
export async function buildAdminCli(): Promise<AdminCli> {
  const cacheDir = join(packageRoot, 'node_modules', '.cache');
  await mkdir(cacheDir, { recursive: true });
  const bundleDir = await mkdtemp(join(cacheDir, 'quotes-admin-test-'));
  const entry = join(bundleDir, 'main.mjs');
  await build({
    entryPoints: [join(packageRoot, 'src/cli/main.ts')],
    outfile: entry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  return {
    entry,
    run: (env, ...args) =>
      new Promise((resolve) => {
        execFile(
          process.execPath,
          [entry, ...args],
          { env: { ...process.env, PORT: '3000', HOST: '127.0.0.1', ...env }, timeout: 60_000 },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
            resolve({ code, stdout, stderr });
          },
        );
      }),
    remove: () => rm(bundleDir, { recursive: true, force: true }),
  };
}

/** `keys create` for a client on a plan; the options that follow are added after it. */
export const keysCreate = (client: string, plan: string) => ['keys', 'create', '--client', client, '--plan', plan];

export function expectOneLineError(run: Run, pattern: RegExp, expect: ExpectStatic = globalExpect): void {
  expect(run.code, run.stdout).not.toBe(0);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^quotes-admin: /);
  expect(lines[0]).toMatch(pattern);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}
