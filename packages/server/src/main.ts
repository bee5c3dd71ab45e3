import { ConfigError, logFormat, parseConfig } from '@quotes/service-base';
import { ensureDefaultCorpus } from '@quotes/corpus/default-corpus';
import { migrateToLatest } from '@quotes/database';
import { announceKeys, createDemoKey } from '@quotes/accounts';
import { createLogger } from '@quotes/service-base';
import { openServiceDatabase } from './serviceDatabase.js';
import { type RunningServer, startServer } from './startServer.js';

async function main(): Promise<void> {
  const config = parseConfig();
  const log = createLogger({
    level: config.LOG_LEVEL,
    pretty: logFormat(config, process.stdout.isTTY === true) === 'pretty',
  });
  const database = await openServiceDatabase(config, log);
  let server: RunningServer | undefined;
  let stopping: Promise<void> | undefined;

  // Installed before the (possibly long) first corpus load, so a signal at any point stops the
  // embedded cluster this process started instead of leaving it running.
  const stop = (signal: string) => {
    if (stopping) {
      log.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    log.info(`${signal}: ${server ? 'finishing in-flight requests, then stopping' : 'stopping'}`);
    // Armed first: the exit must not wait on a database that does not answer.
    setTimeout(() => {
      log.warn({ graceMs: config.SHUTDOWN_GRACE_MS }, 'grace period over: exiting without a clean stop');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS).unref();
    stopping = (async () => {
      await server?.close();
      await database.close();
      log.info('stopped');
    })();
    stopping
      .catch((error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exitCode = 1;
      })
      .finally(() => {
        if (!server) process.exit(signal === 'SIGINT' ? 130 : 143);
        // Anything still holding the event loop after a clean stop is a leak: do not hang on it.
        setTimeout(() => process.exit(), 5000).unref();
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length > 0) log.info({ migrations: applied }, 'applied migrations');
    await ensureDefaultCorpus(database, {
      size: config.CORPUS_SIZE,
      seed: config.CORPUS_SEED,
      log: (line) => log.info(line),
    });
    if (stopping) return;
    // Every setting from the configuration, as startServer derives it for every server.
    server = await startServer({ database, config, logger: log });
    log.info({ url: server.url, metrics: server.metricsUrl, database: database.kind }, 'listening');
    announceKeys(server.url, await createDemoKey(database, log));
  } catch (error) {
    if (stopping) return;
    await database.close().catch(() => undefined);
    throw error;
  }
}

/** The one line a failed start prints: what went wrong and, where there is one, what to set. */
function startFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    const { address, port } = error as { address?: string; port?: number };
    const where = `${address ?? 'the host'}:${port ?? '?'}`;
    return code === 'EADDRINUSE'
      ? `cannot start: ${where} is in use (another server running?); set PORT to a free port, e.g. PORT=${(port ?? 3000) + 1} npm start`
      : `cannot start: no permission to listen on ${where}; set PORT to a port above 1023`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `${error instanceof ConfigError ? '' : 'cannot start: '}${message.split('\n')[0]}`;
}

main().catch((error: unknown) => {
  process.stderr.write(`quotes server: ${startFailure(error)}\n`);
  process.exitCode = 1;
});
