import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, startChild, waitUntilReady } from './childProcess.js';
import { deployFile } from './deployFiles.js';

export interface BalancedServer {
  /** HAProxy's name for it (s1, s2, ...). */
  readonly name: string;
  readonly port: number;
}

export interface HAProxyOptions {
  /** The haproxy program (see findDebianTool). */
  program: string;
  /** The clients' port (loopback). */
  port: number;
  /** HAProxy's own Prometheus metrics and stats page (loopback). */
  statsPort: number;
  servers: readonly BalancedServer[];
  /** HAProxy's output is appended here too. */
  logPath?: string;
  /** false: only failed or retried calls are logged (`option dontlog-normal`), as a benchmark's servers log only warnings. */
  logEveryCall?: boolean;
  /**
   * The health checks' interval in ms, in place of the deployment's `inter 1s` (fall and rise
   * stay): for a test whose proof is not HAProxy's timing and which waits on it after each
   * restart. Unset: the deployment's own.
   */
  checkIntervalMs?: number;
}

export interface HAProxy {
  readonly url: string;
  /** Its process (one, with a thread per core), for CPU accounting. */
  readonly pid: number | undefined;
  readonly metricsUrl: string;
  /** Each server's state as HAProxy sees it now: UP, DOWN, MAINT, NOLB (draining), ... */
  serverStates(): Promise<Map<string, string>>;
  /** Waits until every server is UP (deadline in ms). */
  whenAllUp(deadlineMs: number): Promise<void>;
  /** Waits until server `name` is UP, its checks settled (not "UP 1/2", a server going down). */
  whenUp(name: string, deadlineMs: number): Promise<void>;
  log(): string;
  stop(): Promise<void>;
}

/**
 * The deployment's haproxy.cfg with this run's ports and servers: the clients' and the stats'
 * `bind`, one `server` line per server, the runtime API socket in a directory of its own, the
 * log on stderr, and fewer connections. Every setting it replaces must be in the file, so the two cannot drift apart silently.
 */
export function haproxyConfig(deployed: string, options: HAProxyOptions, socketPath: string): string {
  let section = '';
  const replaced = new Set<string>();
  const lines: string[] = [];
  for (const line of deployed.split('\n')) {
    const header = /^(global|defaults|frontend|backend|listen)\b\s*(\S*)/.exec(line);
    if (header) section = `${header[1]} ${header[2]}`.trim();
    const setting = line.trim();
    if (section === 'global' && setting.startsWith('log ')) {
      // One line a call on stderr (the log file): which server answered, and the retries.
      lines.push('    log stderr format raw local0');
      replaced.add('global log');
    } else if (section === 'defaults' && setting === 'option httplog' && options.logEveryCall === false) {
      lines.push(line, '    option dontlog-normal');
    } else if (section === 'global' && setting.startsWith('maxconn ')) {
      // Enough for loopback, and within a default limit of open files.
      lines.push('    maxconn 4096');
      replaced.add('global maxconn');
    } else if (section === 'global' && setting.startsWith('stats socket ')) {
      lines.push(`    stats socket ${socketPath} mode 600 level admin`);
      replaced.add('stats socket');
    } else if (section === 'frontend quotes' && setting.startsWith('bind ')) {
      lines.push(`    bind 127.0.0.1:${options.port}`);
      replaced.add('quotes bind');
    } else if (section === 'frontend stats' && setting.startsWith('bind ')) {
      lines.push(`    bind 127.0.0.1:${options.statsPort}`);
      replaced.add('stats bind');
    } else if (
      section === 'backend quotes' &&
      setting.startsWith('default-server ') &&
      options.checkIntervalMs !== undefined
    ) {
      lines.push(line.replace(/ inter \S+/, ` inter ${options.checkIntervalMs}ms`));
      if (/ inter \S+/.test(line)) replaced.add('check interval');
    } else if (section === 'backend quotes' && setting.startsWith('server ')) {
      if (!replaced.has('servers'))
        for (const server of options.servers) lines.push(`    server ${server.name} 127.0.0.1:${server.port}`);
      replaced.add('servers');
    } else {
      lines.push(line);
    }
  }
  const expected = ['global log', 'global maxconn', 'stats socket', 'quotes bind', 'stats bind', 'servers'];
  if (options.checkIntervalMs !== undefined) expected.push('check interval');
  const missing = expected.filter((item) => !replaced.has(item));
  if (missing.length > 0) throw new Error(`deploy/haproxy/haproxy.cfg lacks: ${missing.join(', ')}`);
  return lines.join('\n');
}

/** One command on HAProxy's runtime API (a Unix socket), its whole answer. */
function runtimeCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let answer = '';
    socket.setTimeout(2000, () => socket.destroy(new Error(`haproxy's runtime API did not answer ${command}`)));
    socket.on('connect', () => socket.end(`${command}\n`));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** HAProxy in the foreground (`-db`) with the deployment's configuration (see haproxyConfig). */
export async function startHAProxy(options: HAProxyOptions): Promise<HAProxy> {
  const dir = await mkdtemp(join(tmpdir(), 'quotes-haproxy-'));
  const socketPath = join(dir, 'admin.sock');
  const configPath = join(dir, 'haproxy.cfg');
  await writeFile(
    configPath,
    haproxyConfig(await readFile(deployFile('haproxy/haproxy.cfg'), 'utf8'), options, socketPath),
  );
  const child: Child = startChild(options.program, ['-db', '-f', configPath], { logPath: options.logPath });
  /** Each server's status as HAProxy writes it: "UP", "UP 1/2" (failing its checks), "DOWN", ... */
  const serverStatuses = async () => {
    const csv = await runtimeCommand(socketPath, 'show stat');
    const [header, ...rows] = csv.replace(/^# /, '').trim().split('\n');
    const columns = header!.split(',');
    const at = (name: string) => columns.indexOf(name);
    const states = new Map<string, string>();
    for (const row of rows) {
      const cells = row.split(',');
      if (cells[at('pxname')] === 'quotes' && !['FRONTEND', 'BACKEND'].includes(cells[at('svname')]!))
        states.set(cells[at('svname')]!, cells[at('status')]!);
    }
    return states;
  };
  const serverStates = async () =>
    new Map([...(await serverStatuses())].map(([name, status]) => [name, status.split(' ')[0]!]));
  const stop = async () => {
    // SIGUSR1: stop listening, let the calls in flight finish; SIGKILL after the deadline.
    await child.stop('SIGUSR1', 3000);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady('haproxy', child, async () => (await serverStates()).size === options.servers.length, 10_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${options.port}`,
    pid: child.process.pid,
    metricsUrl: `http://127.0.0.1:${options.statsPort}/metrics`,
    serverStates,
    async whenAllUp(deadlineMs) {
      await waitUntilReady(
        'every server behind haproxy',
        child,
        async () => [...(await serverStates()).values()].every((state) => state === 'UP'),
        deadlineMs,
      );
    },
    async whenUp(name, deadlineMs) {
      await waitUntilReady(
        `server ${name} UP behind haproxy`,
        child,
        async () => (await serverStatuses()).get(name) === 'UP',
        deadlineMs,
      );
    },
    log: () => child.output(),
    stop,
  };
}
