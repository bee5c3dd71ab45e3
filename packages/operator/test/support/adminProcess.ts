import { execFile } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type ExpectStatic, expect as globalExpect } from 'vitest';
import { createAdminCli } from '../../src/cli/adminCli.js';

/** The bin's entry point once built. */
export const builtCli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface AdminCli {
  /** The built bin's entry point, for runs that need more than a function (a terminal, a signal). */
  readonly entry: string;
  /**
   * The CLI as a function (createAdminCli), on this environment added to the test's, with its
   * output captured: what `quotes-admin` runs, without a process's start-up.
   */
  run(env: Record<string, string>, ...args: string[]): Promise<Run>;
  /** The same command line in a process of its own: its exit status and streams as a shell sees them. */
  runProcess(env: Record<string, string>, ...args: string[]): Promise<Run>;
}

/** The environment every run gets besides the test's own: the server's address as `npm start` has it. */
const baseEnv = (env: Record<string, string>) => ({ ...process.env, PORT: '3000', HOST: '127.0.0.1', ...env });

/** A stream that keeps what is written to it, as text. */
function captured(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Runs the CLI in this process, with a closed, non-terminal stdin as a pipeline gives it. */
export async function runInProcess(env: Record<string, string>, ...args: string[]): Promise<Run> {
  const stdout = captured();
  const stderr = captured();
  const stdin = Readable.from([]);
  const code = await createAdminCli({ env: baseEnv(env), stdout: stdout.stream, stderr: stderr.stream, stdin }).run(
    args,
  );
  // PassThrough delivers what was written on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * The CLI as a function for most runs, and as the built dist/cli/main.js (what `npx quotes-admin`
 * runs once its build is up to date; `npm test` builds first) for the runs that need a process.
 */
export async function buildAdminCli(): Promise<AdminCli> {
  return {
    entry: builtCli,
    run: runInProcess,
    runProcess: (env, ...args) =>
      new Promise((resolve) => {
        execFile(
          process.execPath,
          [builtCli, ...args],
          { env: baseEnv(env), timeout: 60_000 },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
            resolve({ code, stdout, stderr });
          },
        );
      }),
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
