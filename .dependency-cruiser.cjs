/**
 * The architecture, checked on every `npm test` (dependency-cruiser). Packages by audience sit on
 * packages shared below them; no package reaches into another's folders; inside a package the
 * layers import downward only. The root README's diagram draws the same arrows.
 */

const { packageArrows, testOnly } = require('./scripts/packageArrows.cjs');

const folderOf = (name) => (name === 'contract' ? 'openapi' : `packages/${name}`);
const all = Object.keys(packageArrows);

const packageRules = all.flatMap((name) => {
  const allowed = packageArrows[name].filter((to) => !(testOnly[name] ?? []).includes(to));
  const forbidden = all.filter((to) => to !== name && !packageArrows[name].includes(to));
  const rules = [];
  if (forbidden.length > 0)
    rules.push({
      name: `${name}-imports-only-its-arrows`,
      comment: `${name} may import ${allowed.join(', ') || 'no workspace package'}`,
      severity: 'error',
      from: { path: `^${folderOf(name)}/` },
      to: { path: `^(${forbidden.map(folderOf).join('|')})/` },
    });
  for (const to of testOnly[name] ?? [])
    rules.push({
      name: `${name}-uses-${to}-in-tests-only`,
      severity: 'error',
      from: { path: `^${folderOf(name)}/(src|bin)/` },
      to: { path: `^${folderOf(to)}/` },
    });
  return rules;
});

/** Inside a package: each folder of src and what it must not import (the layers below import nothing above). */
function layers(pkg, below) {
  return Object.entries(below).map(([folder, above]) => ({
    name: `${pkg}-${folder}-imports-downward`,
    comment: `${pkg}/src/${folder} is below ${above.join(', ')}`,
    severity: 'error',
    from: { path: `^packages/${pkg}/src/${folder}/` },
    to: { path: `^packages/${pkg}/src/(${above.join('|')})/` },
  }));
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'what openapi-ts generates is left as it comes',
      severity: 'error',
      from: { pathNot: '/generated/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-reach-into-another-package',
      comment:
        "another package is imported by its name and its public entry (its exports: built ones, or a test kit's testing/), never by a path into its folders",
      severity: 'error',
      from: { path: '^(packages/[^/]+|openapi)/' },
      to: {
        path: '^(packages/[^/]+|openapi)/(src|test|testing|scripts|bin)/',
        pathNot: '^$1/',
        dependencyTypes: ['local'],
      },
    },
    {
      name: 'tests-are-not-imported',
      comment: 'test code and test kits (testing/) are never imported by what a package ships',
      severity: 'error',
      from: { path: '^(packages/[^/]+|openapi)/src/' },
      to: { path: '^(packages/[^/]+|openapi)/(test|testing)/' },
    },
    {
      name: 'test-kits-are-not-built',
      comment: "no test kit ships in a package's dist: testing/ is read as TypeScript by the tests that import it",
      severity: 'error',
      from: {},
      to: { path: '/dist/(testing|[a-z]+/testing)[/.]' },
    },
    {
      name: 'generated-is-a-leaf',
      comment: 'what openapi-ts generates imports nothing of ours',
      severity: 'error',
      from: { path: '/generated/' },
      to: { path: '^(packages|openapi)/', pathNot: '/generated/' },
    },
    {
      name: 'batching-beside-the-database',
      comment:
        "the request path's reads batch with @quotes/database's StatementRounds and take only the rules of @quotes/accounts: no call leaves the server for accounts and comes back",
      severity: 'error',
      from: { path: '^packages/server/src/data/' },
      to: { path: '^packages/accounts/', pathNot: '^packages/accounts/(dist|src)/(rules|domain/)' },
    },
    ...packageRules,
    // The request path: http -> fairness, metrics, keys -> data -> domain.
    ...layers('server', {
      domain: ['data', 'keys', 'http', 'fairness', 'metrics'],
      data: ['keys', 'http', 'fairness', 'metrics'],
      keys: ['http', 'fairness', 'metrics'],
      fairness: ['http', 'metrics'],
    }),
    // The server's data layer by concern: the quote catalog, the counting of calls and the usage history stand apart.
    ...['catalog', 'counting', 'history'].map((concern) => ({
      name: `server-data-${concern}-apart`,
      severity: 'error',
      from: { path: `^packages/server/src/data/${concern}/` },
      to: {
        path: '^packages/server/src/data/(catalog|counting|history)/',
        pathNot: `^packages/server/src/data/${concern}/`,
      },
    })),
    // Keys and their holders: the holders' actions, key requests and operator actions -> mail -> data -> domain.
    ...layers('accounts', {
      domain: ['data', 'keys', 'mail', 'operator', 'keyRequests', 'holders'],
      data: ['mail', 'operator', 'keyRequests', 'holders'],
      keys: ['data', 'mail', 'operator', 'keyRequests', 'holders'],
      mail: ['data', 'keyRequests', 'holders'],
      operator: ['keyRequests', 'holders'],
    }),
    // The operator's tools: the command line may start the console; the console never the command line.
    ...layers('operator', { console: ['cli'], data: ['cli', 'console'] }),
  ],
  options: {
    includeOnly: '^(packages|openapi)/',
    exclude: { path: '(/node_modules/|/\\.turbo/|/coverage/|/test-output/)' },
    doNotFollow: { path: '(node_modules|/dist/)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
    reporterOptions: {
      dot: { collapsePattern: '^(packages/[^/]+|openapi)/' },
    },
  },
};
