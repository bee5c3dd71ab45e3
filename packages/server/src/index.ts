/** The server as a library: the conformance suite and the benchmarks start it in-process. */
export { type Config, ConfigError, parseConfig } from './config.js';
export { connectDatabase, type DatabaseHandle } from '@quotes/database';
export { type EmbeddedDatabase, startEmbeddedPostgres } from '@quotes/database';
export { migrateToLatest, migrationStatus } from '@quotes/database';
export { type OpenedDatabase, openDatabase } from '@quotes/database';
export type { Clock } from './domain/clock.js';
// The corpus loaders, for suites that prepare their own database (conformance, benchmarks).
export {
  type CorpusLoadReport,
  type CorpusRow,
  ensureDefaultCorpus,
  generateCorpus,
  replaceCorpus,
} from '@quotes/corpus';
// The taxonomy index, for the benchmarks' measurement of it against a Roaring library.
export type { RankSet } from './data/rankSet.js';
export { TaxonomyIndex, tagCodeLayout } from './data/taxonomyIndex.js';
// The usage history's recorder, for the benchmarks' measurement of its memory per key.
export { UsageHistory } from './data/usageHistory.js';
export { createLogger, type Logger } from './log.js';
// HAProxy as the cluster runs it, for the benchmarks' figures through a balancer.
export { findDebianTool, haproxyTool } from './cluster/debianTool.js';
export { type HAProxy, startHAProxy } from './cluster/haproxy.js';
export { type StartScript, startScript } from './cluster/startScript.js';
export { freePort } from '@quotes/database';
export {
  type CreateKeyInput,
  createOperatorApi,
  type IssuedKey,
  type KeyView,
  type OperatorApi,
  OperatorError,
  type UsageView,
} from './operator/operatorApi.js';
export { type ProblemBody, problemTypeUri } from './problems.js';
export { type RunningServer, type StartServerOptions, startServer } from './startServer.js';
export { startThrowawayServer, type ThrowawayServer } from './throwawayServer.js';
