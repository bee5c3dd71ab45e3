// The package's public entry: what the other packages of the service use.
export * from './apiResponse.js';
export * from './clientAddress.js';
export * from './cliIo.js';
export * from './commanderErrors.js';
export * from './config.js';
export * from './log.js';
export * from './problems.js';
export * from './contractBackend.js';
export * from './logRedaction.js';
export * from './apiKeyShape.js';
export * from './pageSecurity.js';
export * from './sessionSecrets.js';
export * from './settledWithin.js';
