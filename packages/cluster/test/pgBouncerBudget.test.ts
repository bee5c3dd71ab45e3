import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connectDatabase,
  corpusListenerName,
  type DatabaseHandle,
  type EmbeddedDatabase,
  migrateToLatest,
  startEmbeddedPostgres,
} from '@quotes/database';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, parseConfig } from '@quotes/service-base';
import { createOperatorApi, type OperatorApi } from '@quotes/accounts';
import { type RunningServer, startServer } from '@quotes/server';
import { loadFixtureCorpus } from '@quotes/server/testing';
import { type PgBouncer, pgBouncerSkipReason, startPgBouncer } from './support/pgbouncer.js';
import { callServer } from '@quotes/server/testing';

/**
 * The connection budget of the deployment README, tried: PostgreSQL at max_connections=30,
 * PgBouncer in transaction mode with 12 server connections, three servers with the default
 * pool of 20 client connections each (60: twice what PostgreSQL admits directly), each with its
 * own listener on a direct connection, and an operator's connection beside them.
 */
const maxConnections = 30;
const pooledServerConnections = 12;
const servers = 3;

let dir: string;
let cluster: EmbeddedDatabase;
let bouncer: PgBouncer;
let config: Config;
/** The operator's CLI as the README tells it to run: through the pooler, sessions direct. */
let operatorDatabase: DatabaseHandle;
let operator: OperatorApi;
let running: RunningServer[] = [];
let sampler: pg.Client;

beforeAll(async () => {
  if (pgBouncerSkipReason) return;
  dir = await mkdtemp(join(tmpdir(), 'quotes-budget-'));
  cluster = await startEmbeddedPostgres({
    dataDir: join(dir, 'data'),
    persistent: false,
    fast: true,
    maxConnections,
  });
  sampler = new pg.Client({ connectionString: cluster.adminUrl });
  await sampler.connect();
  await sampler.query('CREATE DATABASE quotes');
  bouncer = await startPgBouncer({ serverUrl: cluster.urlFor('quotes'), serverConnections: pooledServerConnections });
  config = parseConfig({
    DATABASE_URL: bouncer.url,
    DATABASE_LISTEN_URL: cluster.urlFor('quotes'),
    DATABASE_POOL_MODE: 'transaction',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    // Short deadlines: a statement lost in the pooler fails the test quickly rather than hanging it.
    DATABASE_STATEMENT_TIMEOUT_MS: '1500',
  });
  operatorDatabase = connectDatabase(bouncer.url, {
    poolSize: 2,
    poolMode: 'transaction',
    directUrl: cluster.urlFor('quotes'),
  });
  await migrateToLatest(operatorDatabase.db);
  await loadFixtureCorpus(operatorDatabase);
  operator = createOperatorApi(operatorDatabase);
  for (let i = 0; i < servers; i++) {
    running.push(await startServer({ config, port: 0, shutdownGraceMs: 2000 }));
  }
}, 120_000);

afterAll(async () => {
  for (const server of running) await server.close();
  running = [];
  await operatorDatabase?.close();
  await sampler?.end().catch(() => undefined);
  await bouncer?.stop();
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The backends on the service's database right now: pooled (PgBouncer's) and listeners (direct). */
async function backends(): Promise<{ pooled: number; listeners: number; total: number }> {
  const { rows } = await sampler.query<{ pooled: number; listeners: number; total: number }>(
    `SELECT count(*) FILTER (WHERE datname = 'quotes' AND application_name <> $1)::int AS pooled,
            count(*) FILTER (WHERE datname = 'quotes' AND application_name = $1)::int AS listeners,
            count(*)::int AS total
       FROM pg_stat_activity WHERE backend_type = 'client backend'`,
    [corpusListenerName],
  );
  return rows[0]!;
}

async function usedCalls(keyId: string): Promise<number> {
  return (await operator.usage(keyId)).calls;
}

describe.skipIf(pgBouncerSkipReason !== undefined)('three servers through PgBouncer in transaction mode', () => {
  it('refuses a server that would keep session settings on pooled connections', async () => {
    // A direct connection's way of setting the statement deadline (a startup parameter) is
    // what a transaction pooler refuses: DATABASE_POOL_MODE is what makes the difference.
    await expect(
      startServer({ config: { ...config, DATABASE_POOL_MODE: 'session' }, port: 0, shutdownGraceMs: 500 }),
    ).rejects.toThrow(/unsupported startup parameter: statement_timeout/);
  });

  it('serves mixed traffic within the budget, with exact counts', async () => {
    const capped = await operator.createKey({ client: 'Capped', plan: 'enterprise', monthlyCalls: 150 });
    const busy = await Promise.all(
      ['Busy 1', 'Busy 2'].map((client) => operator.createKey({ client, plan: 'enterprise', monthlyCalls: 1_000_000 })),
    );
    const keys = [capped, ...busy];
    const paths = [
      '/v1/quotes-random',
      '/v1/quotes-filter?category=a&limit=5',
      '/v1/quotes-categories',
      '/v1/quotes-usage',
    ];
    const counted = new Map(keys.map((key) => [key.id, 0]));
    const statuses = new Map<number, number>();
    let peak = { pooled: 0, listeners: 0, total: 0 };
    let sampling = true;
    const sampling$ = (async () => {
      while (sampling) {
        const now = await backends();
        peak = {
          pooled: Math.max(peak.pooled, now.pooled),
          listeners: Math.max(peak.listeners, now.listeners),
          total: Math.max(peak.total, now.total),
        };
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    let sent = 0;
    const total = 900;
    await Promise.all(
      Array.from({ length: 48 }, async () => {
        while (sent < total) {
          const n = sent++;
          const key = keys[n % keys.length]!;
          const path = paths[Math.floor(n / keys.length) % paths.length]!;
          const answer = await callServer(running[n % servers]!.url, path, { key: key.key });
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (!path.endsWith('quotes-usage') && (answer.status === 200 || answer.status === 404))
            counted.set(key.id, (counted.get(key.id) ?? 0) + 1);
        }
      }),
    );
    sampling = false;
    await sampling$;

    // Nothing failed: no statement lost its prepared name, no deadline tripped.
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
    expect(counted.get(capped.id)).toBe(150);
    await Promise.all(running.map((server) => server.flushCounts()));
    for (const key of keys) expect(await usedCalls(key.id)).toBe(counted.get(key.id));
    expect(statuses.get(429)).toBeGreaterThan(0);

    // Sixty client connections at most on the servers' side, twelve on PostgreSQL's.
    const clientConnections = running.reduce((sum, server) => sum + server.database.pool.totalCount, 0);
    expect(peak.pooled).toBeLessThanOrEqual(pooledServerConnections);
    expect(peak.listeners).toBe(servers);
    expect(peak.total).toBeLessThanOrEqual(maxConnections);
    console.info(
      `connection budget: ${clientConnections} server-side pool connections at the end; peak on PostgreSQL ` +
        `${peak.pooled} pooled + ${peak.listeners} listeners, ${peak.total} backends of ${maxConnections}`,
    );
  }, 120_000);

  it('bounds statements in a transaction with SET LOCAL, leaving no setting on the pooled connections', async () => {
    const { db, pool } = running[0]!.database;
    const started = performance.now();
    await expect(db.transaction().execute((trx) => sql`SELECT pg_sleep(5)`.execute(trx))).rejects.toMatchObject({
      code: '57014',
    });
    // 57014 is PostgreSQL's own cancel at the deadline (1.5 s): the client's wait (1.75 s) would
    // have failed without a code, and without the deadline the sleep would have run 5 s.
    expect(performance.now() - started).toBeLessThan(5000);
    // Whichever server connection the next statements get, none kept a session setting.
    const settings = await Promise.all(
      Array.from({ length: pooledServerConnections }, () =>
        pool.query<{ value: string }>("SELECT current_setting('statement_timeout') AS value"),
      ),
    );
    expect(new Set(settings.map((result) => result.rows[0]?.value))).toEqual(new Set(['0']));
  });

  it('migrates from several processes at once through the pooler, leaving no lock behind', async () => {
    const handles = Array.from({ length: 3 }, () =>
      connectDatabase(bouncer.url, { poolSize: 2, poolMode: 'transaction', directUrl: cluster.urlFor('quotes') }),
    );
    try {
      const applied = await Promise.all(handles.map((handle) => migrateToLatest(handle.db)));
      expect(applied).toEqual([[], [], []]);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
    }
    const { rows } = await sampler.query<{ held: number }>(
      "SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory'",
    );
    expect(rows[0]?.held).toBe(0);
  }, 20_000);

  it('propagates a revocation through the direct listeners to every server within a second', async () => {
    const issued = await operator.createKey({ client: 'Revoked', plan: 'professional' });
    for (const server of running)
      expect((await callServer(server.url, '/v1/quotes-usage', { key: issued.key })).status).toBe(200);
    // Committed through the pooler: NOTIFY is transactional, so it is sent at that COMMIT.
    await operator.revokeKey(issued.id, 'compromised');
    const started = Date.now();
    await Promise.all(
      running.map(async (server) => {
        for (;;) {
          const answer = await callServer(server.url, '/v1/quotes-usage', { key: issued.key });
          if (answer.status === 403) return;
          expect(Date.now() - started).toBeLessThan(1000);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }),
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
