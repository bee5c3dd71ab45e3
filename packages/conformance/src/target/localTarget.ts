import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connectDatabase,
  type DatabaseHandle,
  ensureDefaultCorpus,
  startOnFreePort,
  migrateToLatest,
  type OpenedDatabase,
  type OperatorApi,
  openDatabase,
  serverConnections,
  parseConfig,
  type RunningServer,
  setUsage,
  startServer,
} from '@quotes/server';
import { operationById } from '../contract/operations.js';
import type { OutageControl } from '../dredd/runDredd.js';
import { ObservedClient } from '../http/observedClient.js';
import type { ResponseLedger } from '../validation/responseLedger.js';
import { startTcpRelay, type TcpRelay } from './tcpRelay.js';

export interface LocalTargetOptions {
  /** Quotes in the generated corpus: small keeps the suite quick, the rules do not depend on size. */
  readonly corpusSize: number;
  readonly corpusSeed: number;
  /** DATABASE_URL of a PostgreSQL that allows CREATE DATABASE; unset: a throwaway embedded cluster. */
  readonly databaseUrl?: string;
  /** Where the recovery probes' responses are validated, like every other response the suite sees. */
  readonly ledger?: ResponseLedger;
  readonly log?: (line: string) => void;
}

/** The real server on a fresh, real database this suite prepared, and a way to take that database away. */
export interface LocalTarget {
  readonly url: string;
  readonly operator: OperatorApi;
  /** Sets a key's calls this month, audited (the used-up and nearly used-up keys). */
  setUsage(keyId: string, calls: number): Promise<unknown>;
  /** How the 503 is produced: the embedded cluster really stopped, or the line to DATABASE_URL cut. */
  readonly outageKind: 'embedded cluster stopped and restarted' | 'connection to DATABASE_URL cut and restored';
  /** Stops the database (or cuts it off); `end()` brings it back and waits until the server answers again. */
  readonly outage: OutageControl;
  close(): Promise<void>;
}

/** Polls a contract call until the server answers it without a 503: it must recover by itself. */
async function waitForRecovery(get: (key: string) => Promise<number>, key: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const status = await get(key);
      if (status < 500) return;
      last = `HTTP ${status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not recover within ${timeoutMs} ms after the database came back (last: ${last})`);
}

interface PreparedDatabase {
  readonly handle: DatabaseHandle;
  readonly outageKind: LocalTarget['outageKind'];
  stop(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * A throwaway embedded cluster. Opened twice through the server's own openDatabase: the first
 * handle owns the cluster (closing it stops PostgreSQL), the second joins it and is the one the
 * server uses, so the cluster can be stopped and started under a server that keeps its pool.
 */
async function embeddedDatabase(log: (line: string) => void): Promise<PreparedDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'quotes-conformance-'));
  // Through the server's configuration path (EMBEDDED_PG_PORT).
  const { config, opened } = await startOnFreePort(async (port) => {
    const config = parseConfig({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port), LOG_LEVEL: 'silent' });
    return { config, opened: await openDatabase(config, { poolSize: 1 }) };
  });
  let owner: OpenedDatabase | undefined = opened;
  if (owner.kind !== 'embedded') throw new Error(`expected to start a fresh embedded cluster, got a ${owner.kind} one`);
  // The server's handle connects as every server does (generic plans, its deadlines).
  const handle = await openDatabase(config, { ...serverConnections(config), poolSize: 10 });
  log(`database: fresh embedded PostgreSQL in ${dataDir} (port ${config.EMBEDDED_PG_PORT})`);
  return {
    handle,
    outageKind: 'embedded cluster stopped and restarted',
    async stop() {
      await owner?.close();
      owner = undefined;
    },
    async start() {
      owner ??= await openDatabase(config, { poolSize: 1 });
    },
    async dispose() {
      await handle.close();
      await owner?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh database on the DATABASE_URL server, reached through a relay the suite can cut. */
async function externalDatabase(databaseUrl: string, log: (line: string) => void): Promise<PreparedDatabase> {
  const admin = connectDatabase(databaseUrl, { poolSize: 1 });
  const name = `conformance_${randomBytes(6).toString('hex')}`;
  await admin.pool.query(`CREATE DATABASE ${name}`);
  const upstream = new URL(databaseUrl);
  const relay: TcpRelay = await startTcpRelay(upstream.hostname, Number(upstream.port || 5432));
  const relayed = new URL(databaseUrl);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(relay.port);
  relayed.pathname = `/${name}`;
  const handle = connectDatabase(relayed.toString(), { ...serverConnections({}), poolSize: 10 });
  log(`database: fresh database ${name} on DATABASE_URL's server, through a relay on port ${relay.port}`);
  return {
    handle,
    outageKind: 'connection to DATABASE_URL cut and restored',
    stop: () => relay.cut(),
    start: () => relay.restore(),
    async dispose() {
      await handle.close();
      await relay.close();
      await admin.pool.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await admin.close();
    },
  };
}

export async function startLocalTarget(options: LocalTargetOptions): Promise<LocalTarget> {
  const log = options.log ?? (() => undefined);
  const database = options.databaseUrl ? await externalDatabase(options.databaseUrl, log) : await embeddedDatabase(log);
  let server: RunningServer | undefined;
  try {
    await migrateToLatest(database.handle.db);
    const started = Date.now();
    await ensureDefaultCorpus(database.handle, { size: options.corpusSize, seed: options.corpusSeed });
    log(
      `corpus: ${options.corpusSize} generated quotes (seed ${options.corpusSeed}) loaded in ${Date.now() - started} ms`,
    );
    server = await startServer({
      // The server as npm start runs it, on a free port, its journal and outbox in the temporary folder.
      config: parseConfig({ DATA_DIR: join(tmpdir(), 'quotes-conformance-data'), PORT: '0', LOG_LEVEL: 'silent' }),
      database: database.handle,
    });
    const running = server;
    log(`server: ${running.url}`);
    let probeKey: string | undefined;
    const usagePath = operationById('getUsage').path;
    const probe = async (key: string): Promise<number> => {
      const headers = { 'X-API-Key': key };
      if (!options.ledger) {
        const response = await fetch(`${running.url}${usagePath}`, { headers, signal: AbortSignal.timeout(5_000) });
        await response.body?.cancel();
        return response.status;
      }
      return (await new ObservedClient(running.url, options.ledger, 'recovery probe').get(usagePath, headers)).response
        .status;
    };
    return {
      url: running.url,
      operator: running.operator,
      setUsage: (keyId, calls) => setUsage(database.handle, keyId, calls),
      outageKind: database.outageKind,
      outage: {
        start: () => database.stop(),
        async end() {
          await database.start();
          probeKey ??= (await running.operator.createKey({ client: 'conformance recovery probe', plan: 'platform' }))
            .key;
          await waitForRecovery(probe, probeKey, 30_000);
        },
      },
      async close() {
        await running.close();
        await database.dispose();
      },
    };
  } catch (error) {
    await server?.close().catch(() => undefined);
    await database.dispose().catch(() => undefined);
    throw error;
  }
}
