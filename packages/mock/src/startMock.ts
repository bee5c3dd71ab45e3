import { type ChildProcess, spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { prismMockArgs } from './prism.js';

export interface StartMockOptions {
  /** 0 (the default) lets the OS pick a free port; Prism reports which one it got. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** How long Prism may take to answer its first request. Default 30 s. */
  startupTimeoutMs?: number;
}

export interface RunningMock {
  /** e.g. `http://127.0.0.1:43557`, without a trailing slash; append the contract's `/v1/...` paths. */
  url: string;
  /** Process id of Prism, which leads its own process group. */
  pid: number;
  /** Stops Prism and everything it started. Safe to call more than once. */
  stop(): Promise<void>;
}

const LISTENING = /Prism is listening on (http:\/\/\S+)/;
const KEPT_LINES = 40;

/** Mocks still running, so that an exiting test process never leaves Prism behind. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    // Negative pid: the whole group, in case Prism ever forks (its -m mode does).
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Starts the real Prism CLI mocking the contract, resolving once it answers HTTP. */
export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const timeoutMs = options.startupTimeoutMs ?? 30_000;

  const child = spawn(process.execPath, prismMockArgs(host, port), {
    // Its own process group, so stop() can signal Prism and any child of it at once.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  running.add(child);

  // 'close' rather than 'exit': it comes after the last output, which the error messages quote.
  const exited = new Promise<void>((resolve) => {
    child.once('close', () => {
      running.delete(child);
      resolve();
    });
  });

  // Prism logs every request; the pipes must be drained for as long as it runs or it blocks.
  const tail: string[] = [];
  let onListening: (url: string) => void = () => {};
  const collector = () => {
    // A chunk can end mid-line; keep the rest for the next one so the URL is never cut.
    let partial = '';
    return (text: string | null) => {
      const lines = (partial + (text ?? '\n')).split('\n');
      partial = lines.pop() ?? '';
      for (const raw of lines) {
        const line = stripVTControlCharacters(raw).trimEnd();
        if (!line) continue;
        tail.push(line);
        if (tail.length > KEPT_LINES) tail.shift();
        const match = LISTENING.exec(line);
        if (match?.[1]) onListening(match[1]);
      }
    };
  };
  for (const stream of [child.stdout, child.stderr]) {
    const collect = collector();
    stream
      ?.setEncoding('utf8')
      .on('data', collect)
      .on('end', () => collect(null));
  }

  const stop = async (): Promise<void> => {
    // Never spawned (the 'error' event fired): there is no 'exit' to wait for.
    if (child.pid === undefined) return;
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      const timer = setTimeout(
        () => fail(new Error(`Prism did not start within ${timeoutMs} ms:\n${tail.join('\n')}`)),
        timeoutMs,
      );
      onListening = (found) => {
        clearTimeout(timer);
        resolve(found);
      };
      child.once('error', fail);
      void exited.then(() =>
        fail(
          new Error(
            `Prism exited (code ${child.exitCode}, signal ${child.signalCode}) before listening:\n${tail.join('\n')}`,
          ),
        ),
      );
    });
    await waitUntilAnswering(url, exited, timeoutMs);
    return { url: url.replace(/\/+$/, ''), pid: child.pid!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Ready means answering HTTP (any status) at the logged URL, not merely having logged it. */
async function waitUntilAnswering(url: string, exited: Promise<void>, timeoutMs: number): Promise<void> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gone) throw new Error('Prism exited while starting');
    try {
      const response = await fetch(`${url}/v1/quotes-usage`, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`Prism at ${url} did not answer within ${timeoutMs} ms`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
