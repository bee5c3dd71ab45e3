// The package's public entry: what the other packages of the service use.
export * from './keyRequestInput.js';
export * from './keyRequestRoutes.js';
