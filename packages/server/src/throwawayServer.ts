import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDefaultCorpus } from '@quotes/corpus/default-corpus';
import { type DatabaseHandle, migrateToLatest, startEmbeddedPostgres } from '@quotes/database';
import { parseConfig, silentLogger } from '@quotes/service-base';
import { openServiceDatabase } from './serviceDatabase.js';
import { type RunningServer, startServer } from './startServer.js';

export interface ThrowawayServer {
  readonly server: RunningServer;
  /** Stops the server and the cluster and deletes the cluster's files. */
  close(): Promise<void>;
}

/**
 * The real server on its own embedded PostgreSQL under the temporary folder, with a generated
 * corpus, on a free port: for suites outside this package that need a whole service (the
 * client's, the consumer's).
 */
export async function startThrowawayServer(options: {
  corpusSize: number;
  corpusSeed: number;
  logLevel?: string;
}): Promise<ThrowawayServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'quotes-throwaway-pg-'));
  const cluster = await startEmbeddedPostgres({
    dataDir: join(dataDir, 'data'),
    persistent: false,
    fast: true,
  }).catch(async (error: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  let database: DatabaseHandle | undefined;
  let server: RunningServer | undefined;
  const close = async () => {
    await server?.close();
    await database?.close();
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const config = parseConfig({
      DATABASE_URL: cluster.adminUrl,
      PORT: '0',
      ...(options.logLevel === undefined ? {} : { LOG_LEVEL: options.logLevel }),
    });
    // main.ts's order: the corpus is loaded before the server starts, so its warm-up and its first
    // callers read it.
    database = await openServiceDatabase(config, silentLogger);
    await migrateToLatest(database.db);
    await ensureDefaultCorpus(database, { size: options.corpusSize, seed: options.corpusSeed });
    server = await startServer({ config, database });
    return { server, close };
  } catch (error) {
    await close();
    throw error;
  }
}
