import type { Config, Logger } from '@quotes/service-base';
import { type OpenedDatabase, openDatabase, serverConnections } from '@quotes/database';

/** The database as every server opens it, `npm start` and a server given a configuration alike. */
export function openServiceDatabase(config: Config, log: Logger): Promise<OpenedDatabase> {
  return openDatabase(config, {
    ...serverConnections(config),
    onLog: (line) => log.debug({ postgres: line }),
    // Idle connections fail whenever the database restarts; requests report outages themselves.
    onPoolError: (error) => log.debug({ err: error }, 'idle database connection closed'),
  });
}
