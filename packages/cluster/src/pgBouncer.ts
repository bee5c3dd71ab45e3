import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@quotes/database';
import pg from 'pg';
import { type Child, startChild, waitUntilReady } from './childProcess.js';
import { deployFile } from './deployFiles.js';

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
  readonly port: number;
  /** What PgBouncer wrote last. */
  log(): string;
  /** Stopped at once (SIGINT, its immediate shutdown: clients cut) and started again on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** The pgbouncer program (see findDebianTool). */
  program: string;
  /** The direct URL of the database to pool (user, password, host, port and name are read from it). */
  serverUrl: string;
  /** Server connections to PostgreSQL, at most, for this database. */
  serverConnections: number;
  /** Default: a free one. */
  port?: number;
}

/**
 * A real PgBouncer on a loopback port, in the foreground, configured by the deployment's
 * pgbouncer.ini (transaction mode, its deadlines) with this run's port, paths and pool size. As
 * root it runs as `postgres` (it refuses root), the user the embedded cluster runs as.
 */
export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  const server = new URL(options.serverUrl);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const database = server.pathname.slice(1);
  const port = options.port ?? (await freePort());
  const dir = await mkdtemp(join(tmpdir(), 'quotes-pgbouncer-'));
  await chmod(dir, 0o755);
  const ini = join(dir, 'pgbouncer.ini');
  await writeFile(join(dir, 'userlist.txt'), `"${user}" "${password}"\n`, { mode: 0o644 });
  const deployed = await readFile(deployFile('pgbouncer/pgbouncer.ini'), 'utf8');
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
  const credentials = `${encodeURIComponent(user)}:${encodeURIComponent(password)}`;
  const adminUrl = `postgres://${credentials}@127.0.0.1:${port}/pgbouncer`;
  const answers = async () => {
    const console = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1000 });
    try {
      await console.connect();
      await console.query('SHOW VERSION');
      return true;
    } finally {
      await console.end().catch(() => undefined);
    }
  };
  const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const launch = async (): Promise<Child> => {
    const child = startChild(options.program, [...asRoot, ini]);
    try {
      await waitUntilReady('pgbouncer', child, answers, 10_000);
    } catch (error) {
      await child.stop('SIGKILL');
      throw error;
    }
    return child;
  };
  let child: Child;
  try {
    child = await launch();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://${credentials}@127.0.0.1:${port}/${database}`,
    adminUrl,
    port,
    log: () => child.output(),
    async restart() {
      await child.stop('SIGINT');
      child = await launch();
    },
    async stop() {
      await child.stop('SIGINT');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
