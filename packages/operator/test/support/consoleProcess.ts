import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from '@quotes/database';
import { builtCli } from './adminProcess.js';

/** `quotes-admin console` as the operator starts it: its own process from the build, the sign-in URL read from its stdout. */
export interface ConsoleProcess {
  readonly url: string;
  readonly signInUrl: string;
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Sends `signal` and resolves with the exit code, or throws after `withinMs`. */
  stop(signal: NodeJS.Signals, withinMs: number): Promise<number | null>;
}

export async function startConsoleProcess(
  env: Record<string, string>,
  withinMs = 30_000,
  args: readonly string[] = [],
): Promise<ConsoleProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [builtCli, 'console', '--port', String(port), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const deadline = Date.now() + withinMs;
  const printedUrl = () => /Sign in \(the link works once[^)]*\): (\S+)/.exec(stdout)?.[1];
  for (;;) {
    if (printedUrl()) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`quotes-admin console printed no sign-in URL within ${withinMs} ms: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const signInUrl = printedUrl()!;
  return {
    url: new URL(signInUrl).origin,
    signInUrl,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop(signal, stopWithinMs) {
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), stopWithinMs);
      try {
        const code = await exited;
        if (child.signalCode === 'SIGKILL') throw new Error(`the console did not stop within ${stopWithinMs} ms`);
        return code;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
