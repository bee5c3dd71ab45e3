import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@quotes/database';
import pg from 'pg';
import { findDebianTool } from './debianTool.js';

const found = findDebianTool({
  name: 'pgbouncer',
  variable: 'PGBOUNCER_PATH',
  path: '/usr/sbin/pgbouncer',
  tests: 'the PgBouncer tests',
});

/** Why the PgBouncer tests are skipped here, or undefined when it is installed. */
export const pgBouncerSkipReason: string | undefined = 'skipReason' in found ? found.skipReason : undefined;

/** The deployment's configuration: the tests run PgBouncer as it configures it, on their own ports and paths. */
const deployedIni = fileURLToPath(new URL('../../../../deploy/pgbouncer/pgbouncer.ini', import.meta.url));

/** `ini` with its one database line and the given settings replaced (each must be there already). */
function withSettings(ini: string, change: { database: string; settings: Record<string, string> }): string {
  let section = '';
  const missing = new Set(Object.keys(change.settings));
  const lines = ini.split('\n').map((line) => {
    const header = /^\[(\w+)\]/.exec(line);
    if (header) section = header[1]!;
    const setting = /^(\w+)\s*=/.exec(line)?.[1];
    if (!setting) return line;
    if (section === 'databases') return change.database;
    if (!(setting in change.settings)) return line;
    missing.delete(setting);
    return `${setting} = ${change.settings[setting]}`;
  });
  if (missing.size > 0) throw new Error(`deploy/pgbouncer/pgbouncer.ini lacks ${[...missing].join(', ')}`);
  return lines.join('\n');
}

export interface PgBouncer {
  /** The pooled database's URL, as servers use it. */
  readonly url: string;
  /** The admin console (`SHOW POOLS`, ...). */
  readonly adminUrl: string;
  /** What PgBouncer wrote to stderr, for a failing test's message. */
  log(): string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** The direct URL of the database to pool (user, password, host, port and name are read from it). */
  serverUrl: string;
  /** Server connections to PostgreSQL, at most, for this database. */
  serverConnections: number;
}

/**
 * A real PgBouncer on a free loopback port, in the foreground, configured by the deployment's
 * pgbouncer.ini (transaction mode, its deadlines) with this test's ports, paths and pool size. As root it runs as `postgres` (it refuses root),
 * the user the embedded cluster runs as.
 */
export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  if (!('path' in found)) throw new Error(found.skipReason);
  const server = new URL(options.serverUrl);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const database = server.pathname.slice(1);
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'quotes-pgbouncer-'));
  await chmod(dir, 0o755);
  const ini = join(dir, 'pgbouncer.ini');
  await writeFile(join(dir, 'userlist.txt'), `"${user}" "${password}"\n`, { mode: 0o644 });
  const deployed = await readFile(deployedIni, 'utf8');
  await writeFile(
    ini,
    withSettings(deployed, {
      database: `${database} = host=${server.hostname} port=${server.port} dbname=${database}`,
      settings: {
        listen_port: String(port),
        unix_socket_dir: '',
        auth_file: join(dir, 'userlist.txt'),
        admin_users: user,
        default_pool_size: String(options.serverConnections),
        max_db_connections: String(options.serverConnections),
        // Foreground, to stderr.
        logfile: '',
        pidfile: '',
      },
    }),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child: ChildProcess = spawn(found.path, [...asRoot, ini], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(child, 'exit');
  const credentials = `${encodeURIComponent(user)}:${encodeURIComponent(password)}`;
  const adminUrl = `postgres://${credentials}@127.0.0.1:${port}/pgbouncer`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited at start: ${stderr}`);
    const console = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1000 });
    try {
      await console.connect();
      await console.query('SHOW VERSION');
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`pgbouncer did not answer within 10 s (${error}): ${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await console.end().catch(() => undefined);
    }
  }
  return { url: `postgres://${credentials}@127.0.0.1:${port}/${database}`, adminUrl, log: () => stderr, stop };
}
