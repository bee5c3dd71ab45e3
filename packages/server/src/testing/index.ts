// Test support for the packages whose tests start the service (operator tools, cluster): not part of the service.
export * from './contractValidation.js';
export * from './fixtureCorpus.js';
export * from './keyRequestClient.js';
export * from './keyRequestRows.js';
export * from './ownCluster.js';
export * from './pacedCalls.js';
export * from './serviceProcess.js';
export * from './smtpInbox.js';
export * from './testServer.js';
export * from './accountClient.js';
