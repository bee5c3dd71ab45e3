export {
  connectBeside,
  connectDatabase,
  type DatabaseHandle,
  type DatabaseOptions,
  openConnections,
  type PoolMode,
} from './database.js';
export {
  type EmbeddedDatabase,
  EmbeddedPortTakenError,
  startEmbeddedPostgres,
  startOnFreePort,
} from './embeddedPostgres.js';
export { freePort } from './freePort.js';
export { migrateToLatest, migrationStatus } from './migrator.js';
export {
  corpusChangedChannel,
  corpusListenerName,
  corpusNextChannel,
  corpusPreparedChannel,
  keyChangedChannel,
  serverPresenceChannel,
} from './notificationChannels.js';
export { type DatabaseSettings, type OpenedDatabase, openDatabase, withDatabase } from './openDatabase.js';
export { planRulesOfRow, seedPlans } from './planSeed.js';
export { publicPageConnections, serverConnections } from './serverConnections.js';
export { type Lane, type RoundAnswers, type RoundOptions, StatementRounds } from './statementRounds.js';
export type * from './schema.js';
