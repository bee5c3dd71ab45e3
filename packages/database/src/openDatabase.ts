import { join } from 'node:path';
import pg from 'pg';
import { connectDatabase, type DatabaseHandle, type PoolMode } from './database.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './embeddedPostgres.js';

/** What opening the database needs from the environment (the server's and the CLI's config have it). */
export interface DatabaseSettings {
  readonly DATABASE_URL?: string | undefined;
  readonly DATA_DIR: string;
  readonly EMBEDDED_PG_PORT: number;
  readonly DATABASE_POOL_SIZE: number;
  /** A direct connection for sessions (LISTEN, corpus loads) when DATABASE_URL is a transaction pooler; default DATABASE_URL. */
  readonly DATABASE_LISTEN_URL?: string | undefined;
  /** 'transaction' when DATABASE_URL is a pooler in transaction mode (see DatabaseOptions.poolMode). */
  readonly DATABASE_POOL_MODE?: PoolMode | undefined;
}

export interface OpenedDatabase extends DatabaseHandle {
  /** 'external' for DATABASE_URL; 'embedded' when this process started the cluster; 'shared' when it joined one already running. */
  readonly kind: 'external' | 'embedded' | 'shared';
}

const applicationDatabase = 'quotes';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function ensureApplicationDatabase(cluster: Pick<EmbeddedDatabase, 'adminUrl'>): Promise<void> {
  const client = new pg.Client({ connectionString: cluster.adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [applicationDatabase]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${applicationDatabase}`);
  } finally {
    await client.end();
  }
}

/**
 * The database the server and the operator CLI work on: DATABASE_URL when set; otherwise the
 * embedded cluster under DATA_DIR, joined when another process (a running server) already
 * started it, else started here and stopped again by close().
 */
export async function openDatabase(
  config: DatabaseSettings,
  options: {
    poolSize?: number;
    onLog?: (line: string) => void;
    onPoolError?: (error: Error) => void;
    /** Deadlines of the request path (see DatabaseOptions); the operator's CLI leaves them unset. */
    acquireTimeoutMs?: number;
    statementTimeoutMs?: number;
    genericPlans?: boolean;
    keptConnections?: number;
  } = {},
): Promise<OpenedDatabase> {
  const settings = {
    poolSize: options.poolSize ?? config.DATABASE_POOL_SIZE,
    onPoolError: options.onPoolError,
    acquireTimeoutMs: options.acquireTimeoutMs,
    statementTimeoutMs: options.statementTimeoutMs,
    genericPlans: options.genericPlans,
    keptConnections: options.keptConnections,
  };
  // The embedded cluster is always reached directly.
  const connect = (url: string) => connectDatabase(url, settings);
  if (config.DATABASE_URL) {
    const handle = connectDatabase(config.DATABASE_URL, {
      ...settings,
      poolMode: config.DATABASE_POOL_MODE,
      directUrl: config.DATABASE_LISTEN_URL,
    });
    return { ...handle, kind: 'external' };
  }

  const adminUrl = `postgres://postgres:quotes-local@127.0.0.1:${config.EMBEDDED_PG_PORT}/postgres`;
  const appUrl = adminUrl.replace(/\/postgres$/, `/${applicationDatabase}`);
  if (await reachable(adminUrl)) {
    await ensureApplicationDatabase({ adminUrl });
    return { ...connect(appUrl), kind: 'shared' };
  }
  const cluster = await startEmbeddedPostgres({
    dataDir: join(config.DATA_DIR, 'postgres'),
    port: config.EMBEDDED_PG_PORT,
    persistent: true,
    onLog: options.onLog,
  });
  await ensureApplicationDatabase(cluster);
  const handle = connect(cluster.urlFor(applicationDatabase));
  return {
    ...handle,
    kind: 'embedded',
    async close() {
      await handle.close();
      await cluster.stop();
    },
  };
}

/** Opens a database for one piece of work and closes it afterwards, whatever happens. */
export async function withDatabase<Handle extends { close(): Promise<void> }, T>(
  open: () => Promise<Handle>,
  work: (database: Handle) => Promise<T>,
): Promise<T> {
  const database = await open();
  try {
    return await work(database);
  } finally {
    await database.close().catch(() => undefined);
  }
}
