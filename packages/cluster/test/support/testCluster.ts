import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@quotes/database';
import { createTestDatabase } from '@quotes/database/testing';
import { type Cluster, startCluster } from '../../src/cluster.js';
import { haproxyTool, pgBouncerTool } from '../../src/debianTool.js';
import { Teardown } from '../../src/teardown.js';
import { parseConfig } from '@quotes/service-base';
import { createOperatorApi, type OperatorApi } from '@quotes/accounts';
import { testWarmUpCalls } from '@quotes/server/testing';
import { debianToolForTests } from './debianTool.js';

/** The cluster `npm run cluster` starts, with 3 servers, and the operator's view of its database. */
export interface TestCluster {
  readonly cluster: Cluster;
  readonly operator: OperatorApi;
  /** DATA_DIR of the cluster and its servers (their journals of counted calls are under count-journal/). */
  readonly dataDir: string;
  /** What the cluster said so far (the lines `npm run cluster` prints): starts, exits, restarts. */
  readonly progress: readonly string[];
  /** Stops everything; the logs are kept (and their folder printed) with KEEP_CLUSTER_LOGS=1. */
  stop(): Promise<void>;
}

/** Why the cluster tests cannot run here (HAProxy or PgBouncer missing), or undefined. */
export function clusterSkipReason(purpose: string): string | undefined {
  const haproxy = debianToolForTests(haproxyTool, purpose);
  const pgbouncer = debianToolForTests(pgBouncerTool, purpose);
  return 'skipReason' in haproxy ? haproxy.skipReason : 'skipReason' in pgbouncer ? pgbouncer.skipReason : undefined;
}

/**
 * HAProxy with the deployment's configuration, PgBouncer in transaction mode and three server
 * processes on free ports, holding a corpus of 2,000 quotes. PostgreSQL is given as DATABASE_URL
 * (a fresh database on the test run's own cluster, already migrated), the cluster's other way:
 * an embedded cluster of its own would cost each file an initdb and a start for nothing these
 * tests prove. clusterInterrupt.test.ts starts `npm run cluster` with the embedded one.
 */
export async function startTestCluster(purpose: string): Promise<TestCluster> {
  const haproxy = debianToolForTests(haproxyTool, purpose) as { path: string };
  const pgbouncer = debianToolForTests(pgBouncerTool, purpose) as { path: string };
  const dir = await mkdtemp(join(tmpdir(), 'quotes-cluster-'));
  const database = await createTestDatabase({ poolSize: 1 });
  const teardown = new Teardown((what, error) => console.error(`stopping ${what}: ${String(error)}`));
  const progress: string[] = [];
  const stop = async () => {
    await teardown.run();
    await database.drop();
    if (!process.env.KEEP_CLUSTER_LOGS) await rm(dir, { recursive: true, force: true });
    else console.info(`logs kept in ${dir}`);
  };
  const ports = await Promise.all(Array.from({ length: 9 }, () => freePort()));
  try {
    const cluster = await startCluster({
      port: ports[0]!,
      statsPort: ports[1]!,
      pgBouncerPort: ports[2]!,
      servers: [0, 1, 2].map((index) => ({ port: ports[3 + index]!, metricsPort: ports[6 + index]! })),
      config: parseConfig({ DATA_DIR: dir, DATABASE_URL: database.url, CORPUS_SIZE: '2000' }),
      programs: { haproxy: haproxy.path, pgbouncer: pgbouncer.path },
      logDir: dir,
      serverEnv: { LOG_LEVEL: 'warn', CORPUS_SIZE: '2000', WARM_UP_CALLS: testWarmUpCalls },
      progress: (line) => progress.push(line),
      teardown,
    });
    return { cluster, operator: createOperatorApi(cluster.database), dataDir: dir, progress, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
