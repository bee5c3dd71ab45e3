// The suite's cost, printed at the end of `npm test` and `npm run test:timed`: each package's test time and the slowest
// test files, then every failed test and every test that passed on its second try, from what scripts/testCostReporter.mjs wrote during this run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', '.test-cost');
const runs = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
// Each package's time in each phase (tests sharing the machine, then the timed ones alone).
const packages = new Map();
for (const run of runs) {
  const entry = packages.get(run.package) ?? { test: 0, 'test:timed': 0 };
  entry[run.phase] = (entry[run.phase] ?? 0) + run.wallMs;
  packages.set(run.package, entry);
}
const total = (phase) => runs.filter((run) => run.phase === phase).reduce((sum, run) => sum + run.wallMs, 0);
const phases = ['test', 'test:timed'].filter((phase) => runs.some((run) => run.phase === phase));
const phaseWords = { test: 'summed over the packages sharing the machine', 'test:timed': 'timed, alone' };
console.log(
  `\nTest time per package: ${phases.map((phase) => `${seconds(total(phase)).trim()} ${phaseWords[phase]}`).join(', ')}:`,
);
console.log(`${phases.map((phase) => phase.padStart(10)).join('  ')}  package`);
for (const [name, entry] of [...packages].sort(
  (a, b) => b[1].test + b[1]['test:timed'] - (a[1].test + a[1]['test:timed']),
))
  console.log(
    `${phases.map((phase) => (entry[phase] ? seconds(entry[phase]) : '-').padStart(10)).join('  ')}  ${name}`,
  );
const files = runs.flatMap((run) => run.files).sort((a, b) => b.ms - a.ms);
console.log('\nSlowest test files:');
for (const file of files.slice(0, 15)) console.log(`${seconds(file.ms)}  ${file.file}`);
const failures = runs.flatMap((run) => (run.failures ?? []).map((failure) => ({ ...failure, phase: run.phase })));
if (failures.length > 0) {
  console.log('\nFailed tests:');
  for (const failure of failures) console.log(`  ${failure.file} [${failure.phase}] ${failure.test}: ${failure.error}`);
}
const secondTries = runs.flatMap((run) => run.secondTries ?? []);
if (secondTries.length > 0) {
  console.log('\nPassed on a second try:');
  for (const test of secondTries) console.log(`  ${test.file} ${test.test}`);
}
