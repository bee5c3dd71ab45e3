export { connectDatabase, type DatabaseHandle, type DatabaseOptions } from './database.js';
export { type EmbeddedDatabase, startEmbeddedPostgres } from './embeddedPostgres.js';
export { freePort } from './freePort.js';
export { migrateToLatest, migrationStatus } from './migrator.js';
export { type DatabaseSettings, type OpenedDatabase, openDatabase } from './openDatabase.js';
export type * from './schema.js';
