/**
 * Which workspace package may import which: read by the dependency checker
 * (.dependency-cruiser.cjs) and compared with the root README's diagram by scripts/architecture.test.mjs.
 */
// Each package and the workspace packages it may import (from src, test, scripts or bin).
const packageArrows = {
  contract: [],
  'text-rules': [],
  database: ['contract'],
  docs: ['contract'],
  corpus: ['contract', 'database', 'text-rules'],
  'service-base': ['contract'],
  accounts: ['contract', 'database', 'service-base', 'text-rules'],
  'key-pages': ['accounts', 'contract', 'service-base', 'text-rules'],
  'account-pages': ['accounts', 'contract', 'service-base', 'text-rules'],
  server: [
    'account-pages',
    'accounts',
    'contract',
    'corpus',
    'database',
    'docs',
    'key-pages',
    'service-base',
    'text-rules',
  ],
  operator: ['accounts', 'contract', 'corpus', 'database', 'docs', 'server', 'service-base', 'text-rules'],
  cluster: ['accounts', 'corpus', 'database', 'server', 'service-base'],
  client: ['contract', 'docs', 'mock', 'server'],
  mock: ['contract', 'corpus', 'database', 'docs', 'server'],
  conformance: ['contract', 'mock', 'server'],
  consumer: ['client', 'conformance', 'contract', 'docs', 'mock', 'server'],
  bench: ['cluster', 'contract', 'corpus', 'database', 'mock', 'operator', 'server'],
};
// The audiences' own packages import the server only from their tests (to start one).
const testOnly = { operator: ['server', 'docs'] };

module.exports = { packageArrows, testOnly };
