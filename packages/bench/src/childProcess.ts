import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** Every child still running, so a bench stopped by a signal stops them too. */
export const runningChildren = new Set<ChildProcess>();

function track(child: ChildProcess): void {
  runningChildren.add(child);
  child.once('exit', () => runningChildren.delete(child));
}

export interface RunningProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  stop(): Promise<void>;
}

/** Starts a node script and resolves once `ready(url)` answers, or rejects with its output. */
export async function startNodeProcess(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: () => Promise<boolean>,
  timeoutMs = 120_000,
  nodeOptions: string[] = [],
): Promise<RunningProcess> {
  const child = spawn(process.execPath, [...nodeOptions, script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${output}`);
    if (await ready().catch(() => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (Date.now() >= deadline) {
    child.kill('SIGKILL');
    throw new Error(`${script} was not ready within ${timeoutMs} ms:\n${output}`);
  }
  return {
    child,
    pid: child.pid ?? -1,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await once(child, 'exit');
      clearTimeout(timer);
    },
  };
}

/** A child that has not exited by then is killed: a hung server or worker must not hang the bench. */
const defaultDeadlineMs = 30 * 60_000;

/**
 * Runs a node script to completion and returns its stdout; a failure carries its stderr, and a
 * script still running after `deadlineMs` is killed and fails the same way.
 */
export async function runNodeScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  deadlineMs = defaultDeadlineMs,
  nodeOptions: string[] = [],
  onMessage?: (message: unknown, child: ChildProcess) => void,
): Promise<string> {
  const child = spawn(process.execPath, [...nodeOptions, script, ...args], {
    env: { ...process.env, ...env },
    // A script given `onMessage` talks to the bench over Node's IPC channel as it runs.
    stdio: onMessage ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  if (onMessage) child.on('message', (message) => onMessage(message, child));
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let overdue = false;
  const timer = setTimeout(() => {
    overdue = true;
    child.kill('SIGKILL');
  }, deadlineMs);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  const command = [basename(script), ...args].join(' ');
  if (overdue) throw new Error(`${command} did not finish within ${deadlineMs / 1000} s, so it was stopped`);
  if (code !== 0) throw new Error(`${script} ${args.join(' ')} failed (${code ?? signal}): ${stderr.trim()}`);
  return stdout;
}

let configDirectory: Promise<string> | undefined;
let configCount = 0;

/**
 * Runs a worker script (a load run, a latency sample) in a process of its own: its config goes
 * in a file, its result is the last line it prints, as JSON.
 */
export async function runWorker<Result>(
  script: string,
  config: unknown,
  deadlineMs: number,
  nodeOptions: string[] = [],
  onMessage?: (message: unknown, child: ChildProcess) => void,
): Promise<Result> {
  configDirectory ??= mkdtemp(join(tmpdir(), 'quotes-bench-worker-'));
  const file = join(await configDirectory, `worker-${configCount++}.json`);
  await writeFile(file, JSON.stringify(config));
  const stdout = await runNodeScript(script, [file], {}, deadlineMs, nodeOptions, onMessage);
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as Result;
}
