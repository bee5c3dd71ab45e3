// The suite's cost, printed at the end of `npm test`: each package's test time and the slowest
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
console.log(
  `\nTest time per package: ${seconds(total('test')).trim()} summed over the packages sharing the machine, ${seconds(total('test:timed')).trim()} timed, alone:`,
);
console.log(`${'test'.padStart(8)}  ${'timed'.padStart(8)}  package`);
for (const [name, entry] of [...packages].sort(
  (a, b) => b[1].test + b[1]['test:timed'] - (a[1].test + a[1]['test:timed']),
))
  console.log(`${seconds(entry.test)}  ${entry['test:timed'] ? seconds(entry['test:timed']) : '       -'}  ${name}`);
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
