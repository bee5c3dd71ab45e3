// The package's public entry: what the other packages of the service use.
export * from './accountRoutes.js';
