import { join } from 'node:path';
import { ensureDefaultCorpus } from '@quotes/corpus/default-corpus';
import { migrateToLatest, type OpenedDatabase, openDatabase } from '@quotes/database';
import type { Config } from '@quotes/service-base';
import { createDemoKey } from '@quotes/accounts';
import { silentLogger } from '@quotes/service-base';
import type { IssuedKey } from '@quotes/accounts';
import { type HAProxy, startHAProxy } from './haproxy.js';
import { type PgBouncer, startPgBouncer } from './pgBouncer.js';
import type { Child } from './childProcess.js';
import { type ServerProcess, type ServerSpec, startServerProcess } from './serverProcess.js';
import { SupervisedServer } from './supervisedServer.js';
import type { Teardown } from './teardown.js';

export interface ClusterOptions {
  /** HAProxy's port for the clients. */
  port: number;
  /** HAProxy's own metrics and stats page. */
  statsPort: number;
  /** One per server: its port and its metrics port. */
  servers: ReadonlyArray<{ port: number; metricsPort: number }>;
  /** PgBouncer's port; default a free one. */
  pgBouncerPort?: number;
  /** The database (DATABASE_URL, a direct one, or the embedded cluster under DATA_DIR), the corpus, the deadlines. */
  config: Config;
  /** The Debian programs (see findDebianTool). */
  programs: { haproxy: string; pgbouncer: string };
  /** Each process's output goes to a file here (server-s1.log, haproxy.log). */
  logDir: string;
  /** More environment for the servers (tests: shorter deadlines). */
  serverEnv?: Record<string, string>;
  /** Progress lines for the person at the terminal. */
  progress: (line: string) => void;
  /** Receives each step's stop as soon as it has started. */
  teardown: Teardown;
  /** Creates `npm start`'s demo key on a database without keys. */
  demoKey?: boolean;
}

export interface Cluster {
  /** Where the clients go: HAProxy. */
  readonly url: string;
  readonly haproxy: HAProxy;
  readonly bouncer: PgBouncer;
  /** A direct connection (two at most), the cluster's own: migrations, the corpus, the operator's work. */
  readonly database: OpenedDatabase;
  /**
   * The server processes serving now, in HAProxy's order (s1 first). One that exits without being
   * asked is started again on the same ports after a back-off (SupervisedServer), and said so.
   */
  readonly servers: readonly ServerProcess[];
  /** Times each server was started again after an exit it was not asked for, in the same order. */
  readonly restarts: readonly number[];
  /** The demo key, when this start created it. */
  readonly demoKey: IssuedKey | undefined;
  /** Stops server `index` (SIGTERM: it drains), starts it again, and resolves once HAProxy has it UP. */
  restartServer(index: number): Promise<void>;
}

/** How long HAProxy may take to mark a ready server UP: two checks a second apart (rise 2), with room for a loaded machine. */
const balancedWithinMs = 15_000;

/** Server connections PgBouncer opens to PostgreSQL for the whole service (deploy/pgbouncer). */
const pooledConnections = 20;

/**
 * How long a stopping server fails /readyz before closing its port: HAProxy checks every second
 * and takes a server out after two failures (deploy/haproxy), so 3 s leaves a second to spare.
 */
export const clusterDrainMs = 3000;

/**
 * The deployment of deploy/README.md on loopback: PostgreSQL (DATABASE_URL or embedded),
 * migrated and with the default corpus on a fresh database, PgBouncer in transaction mode, the
 * servers (`npm start`'s program, each on its own ports, pooled through PgBouncer and listening
 * directly), and HAProxy in front. Resolves once HAProxy has every server UP.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { config, teardown, progress } = options;
  const database = await openDatabase(config, { poolSize: 2 });
  teardown.add('PostgreSQL', () => database.close());
  progress(`PostgreSQL: ${database.kind === 'external' ? 'DATABASE_URL' : `embedded, under ${config.DATA_DIR}`}`);
  await migrateToLatest(database.db);
  await ensureDefaultCorpus(database, { size: config.CORPUS_SIZE, seed: config.CORPUS_SEED, log: progress });
  // Before the servers start: the first of them would make it otherwise, and show it in its log only.
  const demoKey = options.demoKey ? await createDemoKey(database, silentLogger) : undefined;

  const bouncer = await startPgBouncer({
    program: options.programs.pgbouncer,
    serverUrl: database.directUrl,
    serverConnections: pooledConnections,
    port: options.pgBouncerPort,
  });
  teardown.add('PgBouncer', () => bouncer.stop());
  progress(`PgBouncer: 127.0.0.1:${bouncer.port}, transaction mode, ${pooledConnections} connections to PostgreSQL`);

  const serverEnv = {
    ...options.serverEnv,
    // The cluster's own: a server started again finds there what the one before it journaled.
    DATA_DIR: config.DATA_DIR,
    DATABASE_URL: bouncer.url,
    DATABASE_LISTEN_URL: database.directUrl,
    DATABASE_POOL_MODE: 'transaction',
    SHUTDOWN_DRAIN_MS: String(clusterDrainMs),
    // HAProxy's X-Forwarded-For (option forwardfor) gives the client's address.
    TRUST_PROXY: '127.0.0.1',
  };
  const stopWithin = config.SHUTDOWN_GRACE_MS + 2000;
  const specs: ServerSpec[] = options.servers.map((ports, index) => ({ name: `s${index + 1}`, ...ports }));
  let haproxy: HAProxy | undefined;
  const supervision = {
    start: (spec: ServerSpec, onSpawn: (child: Child) => void) =>
      startServerProcess(spec, serverEnv, { logPath: join(options.logDir, `server-${spec.name}.log`), onSpawn }),
    stopWithinMs: stopWithin,
    balanced: (name: string) => haproxy?.whenUp(name, balancedWithinMs) ?? Promise.resolve(),
    progress,
  };
  const servers: SupervisedServer[] = [];
  teardown.add('the servers', async () => {
    await Promise.all(servers.map((server) => server.close()));
  });
  if (teardown.stopping) throw new Error('stopped during start-up');
  // All at once: much of a start waits (on PostgreSQL, the warm-up's reads, the first listen),
  // so on two cores three starts together end seconds sooner than one after the other. Each is
  // known to the servers' step before it starts, so a stop during the starts cuts them short.
  const starts = specs.map((spec) => {
    const server = new SupervisedServer(spec, supervision);
    servers.push(server);
    return server.start();
  });
  await Promise.all(starts);
  for (const spec of specs)
    progress(`server ${spec.name}: http://127.0.0.1:${spec.port}, metrics on ${spec.metricsPort}`);
  if (teardown.stopping) throw new Error('stopped during start-up');

  const balancer = await startHAProxy({
    program: options.programs.haproxy,
    port: options.port,
    statsPort: options.statsPort,
    servers: specs,
    logPath: join(options.logDir, 'haproxy.log'),
  });
  haproxy = balancer;
  teardown.add('HAProxy', () => balancer.stop());
  await balancer.whenAllUp(15_000);

  return {
    url: balancer.url,
    haproxy: balancer,
    bouncer,
    database,
    get servers() {
      return servers.map((server) => server.server);
    },
    get restarts() {
      return servers.map((server) => server.restarts);
    },
    demoKey,
    async restartServer(index) {
      const server = servers[index];
      if (!server) throw new Error(`no server ${index}`);
      await server.restart();
    },
  };
}
