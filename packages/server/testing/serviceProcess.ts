import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { type Agent, request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@quotes/database';
import { testDataDir, testWarmUpCalls } from './testConfig.js';

const packageRoot = fileURLToPath(new URL('../', import.meta.url));

/**
 * The command line of the package's `start` script (what `npm start` runs once the build is up to
 * date), read from package.json so a test cannot drift from it: its environment assignments, and
 * node's arguments with the built entry point.
 */
export function startCommand(): { env: Record<string, string>; args: string[] } {
  const script = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts.start;
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0] ?? '')) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  if (words.shift() !== 'node') throw new Error(`the start script does not run node: ${script}`);
  return { env, args: words.map((word) => (word.startsWith('-') ? word : join(packageRoot, word))) };
}

/**
 * The server as `npm start` runs it (the built dist/main.js with the start script's flags): its
 * own process, its own environment, its stdout and stderr kept.
 */
export interface ServiceProcess {
  readonly url: string;
  readonly child: ChildProcess;
  readonly stdout: string[];
  readonly stderr: () => string;
  /** Resolves with the exit code and the moment of exit. */
  readonly exited: Promise<{ code: number | null; at: number }>;
  kill(): void;
}

export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const start = startCommand();
  const child = spawn(process.execPath, start.args, {
    cwd: packageRoot,
    env: {
      ...process.env,
      ...start.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      CORPUS_SIZE: '0',
      DATA_DIR: testDataDir,
      WARM_UP_CALLS: testWarmUpCalls,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    stdout.push(...lines.filter((line) => line !== ''));
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, at: performance.now() }));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited at start: ${stderr}`);
    const answer = await get(`${url}/healthz`, {}).catch(() => undefined);
    if (answer?.status === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start within 60 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, child, stdout, stderr: () => stderr, exited, kill: () => child.kill('SIGKILL') };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
}

/**
 * One GET over node:http (hop-by-hop headers such as Connection stay visible), with a deadline;
 * `localAddress` sends it from that loopback address (all of 127/8 is local): a client on another network.
 */
export function get(
  url: string,
  headers: Record<string, string>,
  options: { agent?: Agent; timeoutMs?: number; localAddress?: string } = {},
): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        headers,
        agent: options.agent,
        localAddress: options.localAddress,
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            ms: performance.now() - started,
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The postmaster of a cluster and every process it started (the backends, the writers). */
function clusterPids(dataDir: string): number[] {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
  return [postmaster, ...children];
}

/** A storage stall: every process of the cluster stopped (the postmaster alone is not enough). */
export function freezeCluster(dataDir: string): () => void {
  const pids = clusterPids(dataDir);
  for (const pid of pids) process.kill(pid, 'SIGSTOP');
  return () => {
    for (const pid of pids.reverse()) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Gone already.
      }
    }
  };
}
