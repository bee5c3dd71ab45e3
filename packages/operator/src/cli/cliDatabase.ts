import { type Config, parseConfig } from '@quotes/service-base';
import { migrateToLatest } from '@quotes/database';
import { type OpenedDatabase, openDatabase, withDatabase } from '@quotes/database';

/**
 * The database the CLI works on: the server's (DATABASE_URL, or the embedded cluster under
 * .data/, joined when a server is running and started here otherwise). The CLI needs a couple
 * of connections only.
 */
export function cliConfig(): Config {
  return parseConfig();
}

const openDatabases = new Set<OpenedDatabase>();

export async function openCliDatabase(config: Config): Promise<OpenedDatabase> {
  const database = await openDatabase(config, { poolSize: 2 });
  openDatabases.add(database);
  return {
    ...database,
    async close() {
      openDatabases.delete(database);
      await database.close();
    },
  };
}

/** On Ctrl-C: stop an embedded cluster this command started rather than leave it running. */
export async function closeOpenDatabases(): Promise<void> {
  await Promise.all([...openDatabases].map((database) => database.close().catch(() => undefined)));
  openDatabases.clear();
}

/** For commands that read or write keys, usage or quotes: migrations are applied first, as the server does. */
export async function openMigratedDatabase(config: Config): Promise<OpenedDatabase> {
  const database = await openCliDatabase(config);
  try {
    await migrateToLatest(database.db);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  return database;
}

export { withDatabase };
