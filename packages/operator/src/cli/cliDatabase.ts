import type { Config } from '@quotes/service-base';
import { migrateToLatest } from '@quotes/database';
import { type OpenedDatabase, openDatabase, withDatabase } from '@quotes/database';

/**
 * The databases one CLI has open: the server's (DATABASE_URL, or the embedded cluster under
 * .data/, joined when a server is running and started here otherwise), kept so an interrupted
 * command stops an embedded cluster it started.
 */
export interface CliDatabases {
  /** Opened as is (the `db` commands, which migrate or report). */
  open(config: Config): Promise<OpenedDatabase>;
  /** For commands that read or write keys, usage or quotes: migrations are applied first, as the server does. */
  openMigrated(config: Config): Promise<OpenedDatabase>;
  closeAll(): Promise<void>;
}

export function cliDatabases(): CliDatabases {
  const openDatabases = new Set<OpenedDatabase>();
  // The CLI needs a couple of connections only.
  const open = async (config: Config): Promise<OpenedDatabase> => {
    const database = await openDatabase(config, { poolSize: 2 });
    openDatabases.add(database);
    return {
      ...database,
      async close() {
        openDatabases.delete(database);
        await database.close();
      },
    };
  };
  return {
    open,
    async openMigrated(config) {
      const database = await open(config);
      try {
        await migrateToLatest(database.db);
      } catch (error) {
        await database.close().catch(() => undefined);
        throw error;
      }
      return database;
    },
    async closeAll() {
      await Promise.all([...openDatabases].map((database) => database.close().catch(() => undefined)));
      openDatabases.clear();
    },
  };
}

export { withDatabase };
