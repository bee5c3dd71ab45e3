// The package's public entry: what the other packages of the service use.
export * from './debianTool.js';
export * from './haproxy.js';
export * from './startScript.js';
