/**
 * The server as a library, for suites that start it in-process on a database of their own (the
 * conformance suite's local target, the client's and the mock's parity tests).
 */
export { connectDatabase, type DatabaseHandle } from '@quotes/database';
export { type EmbeddedDatabase, startEmbeddedPostgres, startOnFreePort } from '@quotes/database';
export { migrateToLatest, migrationStatus } from '@quotes/database';
export { type OpenedDatabase, openDatabase, serverConnections } from '@quotes/database';
export { freePort } from '@quotes/database';
export {
  type CorpusLoadReport,
  type CorpusRow,
  ensureDefaultCorpus,
  generateCorpus,
  replaceCorpus,
} from '@quotes/corpus';
export {
  type Clock,
  type CreateKeyInput,
  createOperatorApi,
  type IssuedKey,
  type KeyView,
  type OperatorApi,
  OperatorError,
  type UsageView,
} from '@quotes/accounts';
export { setUsage } from '@quotes/accounts/usage-override';
export { type Config, ConfigError, createLogger, type Logger, parseConfig } from '@quotes/service-base';
export { type ProblemBody, problemTypeUri } from '@quotes/service-base';
export { type RunningServer, type StartServerOptions, startServer } from './startServer.js';
export { startThrowawayServer, type ThrowawayServer } from './throwawayServer.js';
