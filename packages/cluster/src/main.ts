import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { commanderErrorLine, isCommanderError } from '@quotes/service-base';
import { ConfigError, parseConfig } from '@quotes/service-base';
import { announceKeys } from '@quotes/accounts';
import { killEveryChild } from './childProcess.js';
import { startCluster } from './cluster.js';
import { findDebianTool, haproxyTool, pgBouncerTool } from './debianTool.js';
import { onFrontGone, runInOwnProcessGroup } from './ownProcessGroup.js';
import { Teardown } from './teardown.js';

/** An option's whole-number parser; the message names the option (commanderErrorLine adds the value). */
function integer(option: string, min: number, max: number) {
  return (value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max)
      throw new InvalidArgumentError(`${option} must be a whole number from ${min} to ${max}`);
    return parsed;
  };
}

const program = new Command('npm run cluster --')
  .description('PostgreSQL, PgBouncer, N servers and HAProxy on loopback (deploy/README.md); Ctrl-C stops them all')
  .option('--servers <n>', 'servers behind HAProxy', integer('--servers', 1, 9), 3)
  .option('--port <port>', "HAProxy's port for clients", integer('--port', 1, 65535), 8080)
  .option(
    '--server-port <port>',
    'the first server: its port (the next ones follow)',
    integer('--server-port', 1, 65535),
    3001,
  )
  .option(
    '--metrics-port <port>',
    "the first server's METRICS_PORT (the next ones follow)",
    integer('--metrics-port', 1, 65535),
    9101,
  )
  .option('--pgbouncer-port <port>', "PgBouncer's port", integer('--pgbouncer-port', 1, 65535), 6432)
  .option('--stats-port <port>', "HAProxy's own metrics and stats page", integer('--stats-port', 1, 65535), 8404)
  .exitOverride()
  .configureOutput({ writeErr: () => undefined });

/**
 * Signals within this long of the first are the same request to stop: a Ctrl-C at a terminal
 * reaches every process of its group, npm among them, and npm passes each it gets to its child,
 * so the cluster gets two or three a few milliseconds apart. One later asks to exit at once.
 */
const sameRequestMs = 2000;

/** The one line a failed start prints. */
function fail(line: string): never {
  process.stderr.write(`quotes cluster: ${line}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  try {
    program.parse();
  } catch (error) {
    if (error instanceof CommanderError && !isCommanderError(error)) process.exit(0);
    fail(error instanceof CommanderError ? commanderErrorLine(error, program) : String(error));
  }
  const options = program.opts<{
    servers: number;
    port: number;
    serverPort: number;
    metricsPort: number;
    pgbouncerPort: number;
    statsPort: number;
  }>();
  let config: ReturnType<typeof parseConfig>;
  try {
    config = parseConfig();
  } catch (error) {
    fail(error instanceof ConfigError ? error.message : String(error));
  }
  const tools = [findDebianTool(haproxyTool), findDebianTool(pgBouncerTool)];
  const missing = tools.flatMap((tool) => ('missing' in tool ? [tool.missing] : []));
  if (missing.length > 0) fail(missing.join('; '));
  const [haproxy, pgbouncer] = tools.map((tool) => (tool as { path: string }).path) as [string, string];
  // The checks above answer a mistake at once; the cluster itself runs in a copy of this program.
  if (!runInOwnProcessGroup()) return;

  const progress = (line: string) => process.stderr.write(`${line}\n`);
  const teardown = new Teardown((what, error) => progress(`stopping ${what} failed: ${String(error)}`));
  let firstSignalAt: number | undefined;
  const stop = (reason: string, exitCode: number) => {
    if (firstSignalAt !== undefined) {
      // A terminal's Ctrl-C reaches npm and this program alike, and npm passes its own on.
      if (performance.now() - firstSignalAt < sameRequestMs) return;
      progress(`${reason} again: killing what is still running (SIGKILL) and exiting now`);
      killEveryChild();
      process.exit(1);
    }
    firstSignalAt = performance.now();
    progress(`${reason}: stopping HAProxy, the servers (they drain), PgBouncer and PostgreSQL`);
    // Every child has a deadline of its own; this one covers them all, and keeps the process
    // alive until the stop ends, should a step wait on something that holds no handle.
    setTimeout(() => {
      progress('still stopping after the deadline: killing what is left (SIGKILL) and exiting');
      killEveryChild();
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS + 20_000);
    void teardown.run().then(() => {
      progress('stopped');
      process.exit(exitCode);
    });
  };
  process.on('SIGINT', () => stop('SIGINT', 130));
  process.on('SIGTERM', () => stop('SIGTERM', 143));
  onFrontGone(() => {
    if (firstSignalAt === undefined) stop('the process that started the cluster is gone', 143);
  });
  // However this process ends, no child outlives it on its ports (each has a group of its own).
  process.on('exit', () => killEveryChild());

  const logDir = join(config.DATA_DIR, 'cluster');
  await mkdir(logDir, { recursive: true });
  try {
    const cluster = await startCluster({
      port: options.port,
      statsPort: options.statsPort,
      servers: Array.from({ length: options.servers }, (_, index) => ({
        port: options.serverPort + index,
        metricsPort: options.metricsPort + index,
      })),
      pgBouncerPort: options.pgbouncerPort,
      config,
      programs: { haproxy, pgbouncer },
      logDir,
      progress,
      teardown,
      demoKey: true,
    });
    announceKeys(cluster.url, cluster.demoKey, [
      `  ${options.servers} servers behind HAProxy: ${cluster.servers.map((server) => server.url).join(', ')}`,
      `  Prometheus metrics: ${cluster.servers.map((server) => server.metricsUrl).join(', ')}, HAProxy ${cluster.haproxy.metricsUrl}`,
      `  Logs: ${logDir}/ (server-s1.log, ..., haproxy.log). Ctrl-C stops everything.`,
    ]);
  } catch (error) {
    if (teardown.stopping) return;
    progress(`quotes cluster: cannot start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    await teardown.run();
    process.exit(1);
  }
}

void main();
