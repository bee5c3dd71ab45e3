import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** Keeps this much of a child's output, for the message of a failed start or an early exit. */
const keptOutputChars = 64 * 1024;

/** The children started here and not yet exited (for killEveryChild). */
const running = new Set<ChildProcess>();

/**
 * SIGKILLs the process group of every child still running, synchronously: the last resort of a
 * cluster that exits before its stop ended (a deadline passed, a signal long after the first), so
 * no child is left on its ports. Returns how many it signalled.
 */
export function killEveryChild(): number {
  let signalled = 0;
  for (const child of running) {
    if (child.pid === undefined) continue;
    try {
      // Each child leads a group of its own (detached).
      process.kill(-child.pid, 'SIGKILL');
      signalled++;
    } catch {
      // Exited meanwhile.
    }
  }
  return signalled;
}

/** A program the cluster runs, its output's tail kept, stopped by a signal within a deadline. */
export interface Child {
  readonly process: ChildProcess;
  /** The last 64 KB it wrote (stdout and stderr together). */
  output(): string;
  /** Whether it has exited. */
  readonly exited: boolean;
  /** Resolves when it exits (at once if it has). */
  whenExited(): Promise<void>;
  /** `signal` (default SIGTERM), then SIGKILL after `deadlineMs`; resolves once it has exited. */
  stop(signal?: NodeJS.Signals, deadlineMs?: number): Promise<void>;
}

/**
 * Starts `program`. Each child gets a process group of its own (detached): a Ctrl-C at the
 * terminal reaches only the cluster, which stops its children in order (the balancer first, the
 * database last) instead of all of them at once.
 */
export function startChild(
  program: string,
  args: string[],
  options: SpawnOptions & {
    /** Where its output is appended too. */
    logPath?: string;
  } = {},
): Child {
  const { logPath, ...spawnOptions } = options;
  const child = spawn(program, args, { ...spawnOptions, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const logFile = logPath ? createWriteStream(logPath, { flags: 'a' }) : undefined;
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-keptOutputChars);
    logFile?.write(chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exit = once(child, 'exit').then(() => {
    running.delete(child);
    logFile?.end();
  });
  // A spawn failure (ENOENT) is reported as 'error', followed by 'exit' only sometimes.
  const failed = once(child, 'error').then(() => {
    if (child.pid === undefined) running.delete(child);
  });
  const ended = Promise.race([exit, failed]);
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    process: child,
    output: () => output,
    get exited() {
      return hasExited();
    },
    whenExited: () => ended,
    async stop(signal: NodeJS.Signals = 'SIGTERM', deadlineMs = 5000) {
      if (hasExited() || child.pid === undefined) return;
      child.kill(signal);
      const killer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
      await ended;
      clearTimeout(killer);
    },
  };
}

/** Polls `ready` every 100 ms until it resolves true; throws when the child exits or `deadlineMs` passes. */
export async function waitUntilReady(
  what: string,
  child: Child,
  ready: () => Promise<boolean>,
  deadlineMs: number,
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  let lastError: unknown;
  for (;;) {
    if (child.exited)
      throw new Error(`${what} exited at start: ${child.output().trim().split('\n').slice(-5).join(' | ')}`);
    try {
      if (await ready()) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (${lastError.message})` : '';
      throw new Error(`${what} was not ready within ${deadlineMs / 1000} s${cause}: ${child.output().slice(-500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
