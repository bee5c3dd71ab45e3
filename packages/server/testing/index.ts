// Test support for the tests that start the service (this package's, the operator's, the cluster's): never built into dist/, read by Vitest as TypeScript.
export * from './contractValidation.js';
export * from './fixtureCorpus.js';
export * from './keyRequestClient.js';
export * from './keyRequestRows.js';
export * from './ownCluster.js';
export * from './pacedCalls.js';
export * from './serviceProcess.js';
export * from './smtpInbox.js';
export * from './testConfig.js';
export * from './testServer.js';
export * from './accountClient.js';
export * from './holderServer.js';
export * from './proofOfWorkSolver.js';
