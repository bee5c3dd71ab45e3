import { Kysely } from 'kysely';
import pg from 'pg';
import { QuotesPostgresDialect } from './migrationLock.js';
import type { Database } from './schema.js';
import { type PoolMode, transactionPooledClient } from './transactionPooledClient.js';

export type { PoolMode };

// DATE columns (months) stay 'YYYY-MM-DD' strings: pg's default turns them into local-time
// Date objects, which shifts the day outside UTC.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
// count(*) and other int8 values fit easily in a JS number here.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly pool: pg.Pool;
  readonly url: string;
  /**
   * A direct connection to PostgreSQL for the work that needs a session of its own (LISTEN, the
   * corpus loader's temporary table), even when `url` is a transaction pooler.
   */
  readonly directUrl: string;
  /** How `url` hands out connections (DatabaseOptions.poolMode): another pool on it connects the same way. */
  readonly poolMode?: PoolMode;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  poolSize?: number;
  /** Called for errors on idle clients (e.g. the server restarting); without a listener pg crashes the process. */
  onPoolError?: (error: Error) => void;
  /** Longest wait for a pooled connection (a new one or a free one); default 3000 ms. */
  acquireTimeoutMs?: number;
  /**
   * Longest run of one statement: PostgreSQL's statement_timeout, and the same wait (plus a
   * margin) on this side, which is what ends the wait when the database hangs rather than fails.
   * Unset: no limit (the operator's bulk work).
   */
  statementTimeoutMs?: number;
  /**
   * Plan every statement once, for any parameters (PostgreSQL's plan_cache_mode
   * force_generic_plan): for the request path, whose statements are lookups by key or rank that
   * one plan serves, and which otherwise are planned anew on each of their first executions.
   */
  genericPlans?: boolean;
  /**
   * Connections kept open however idle, opened by openConnections() (default 0): on a server,
   * the first calls after a start or a quiet spell then do not each pay for a new connection
   * (about 5 ms here) and for planning its statements.
   */
  keptConnections?: number;
  /**
   * 'transaction' when `url` is a pooler in transaction mode (PgBouncer's `pool_mode =
   * transaction`), which hands each transaction a possibly different server connection: then no
   * pooled connection carries session state (see transactionPooledClient.ts). Default 'session':
   * a direct connection, or a pooler in session mode.
   */
  poolMode?: PoolMode;
  /** DatabaseHandle.directUrl; default `url`. */
  directUrl?: string;
}

/** How much longer than statement_timeout the client waits, so a slow statement is cancelled by PostgreSQL first. */
const clientWaitMarginMs = 250;

export function connectDatabase(url: string, options: DatabaseOptions = {}): DatabaseHandle {
  const pooled = options.poolMode === 'transaction';
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // Fail fast when the database is down, so callers can answer 503 instead of hanging.
    connectionTimeoutMillis: options.acquireTimeoutMs ?? 3000,
    idleTimeoutMillis: 30_000,
    min: Math.min(options.keptConnections ?? 0, options.poolSize ?? 10),
    // Session settings sent at connect time would stay on one server connection of a
    // transaction pooler (PgBouncer refuses them as startup parameters anyway): there the
    // statement deadline is set per transaction and generic plans, which only named statements
    // have, do not apply.
    ...(options.genericPlans && !pooled ? { options: '-c plan_cache_mode=force_generic_plan' } : {}),
    ...(options.statementTimeoutMs
      ? {
          ...(pooled ? {} : { statement_timeout: options.statementTimeoutMs }),
          query_timeout: options.statementTimeoutMs + clientWaitMarginMs,
        }
      : {}),
    ...(pooled ? { Client: transactionPooledClient(options.statementTimeoutMs) } : {}),
  });
  pool.on('error', options.onPoolError ?? (() => undefined));
  // pg-pool listens for errors on idle connections only: a connection lost while checked out
  // (PgBouncer restarted between two statements of a transaction) would crash the process. The
  // statement in flight gets the error; the pool drops the connection when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new QuotesPostgresDialect({ pool }) });
  let closed = false;
  return {
    db,
    pool,
    url,
    directUrl: options.directUrl ?? url,
    poolMode: options.poolMode ?? 'session',
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

/**
 * Another pool on the database `handle` reaches, connecting the way it does (pooler mode, direct
 * URL): a bulkhead, so one audience's connections are never another's.
 */
export function connectBeside(handle: DatabaseHandle, options: Omit<DatabaseOptions, 'poolMode' | 'directUrl'>) {
  return connectDatabase(handle.url, { ...options, poolMode: handle.poolMode, directUrl: handle.directUrl });
}

/** Opens `count` of the pool's connections at once (as far as its size allows) and returns them to it idle. */
export async function openConnections(pool: pg.Pool, count: number): Promise<void> {
  const clients = await Promise.all(
    Array.from({ length: Math.min(count, pool.options.max ?? count) }, () => pool.connect()),
  );
  for (const client of clients) client.release();
}
