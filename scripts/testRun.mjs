// Every package's tests, one package at a time (turbo), each run also reporting its cost
// (testCostReporter.mjs); the cost is printed at the end whether or not the tests passed.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
rmSync(join(root, '.test-cost'), { recursive: true, force: true });
const reporter = join(root, 'scripts', 'testCostReporter.mjs');
const started = performance.now();
const tests = spawnSync(
  'npx',
  ['turbo', 'run', 'test', '--concurrency=1', '--', '--reporter=default', `--reporter=${reporter}`],
  { cwd: root, stdio: 'inherit' },
);
spawnSync(process.execPath, [join(root, 'scripts', 'testCost.mjs')], { cwd: root, stdio: 'inherit' });
console.log(`\nTests took ${((performance.now() - started) / 60_000).toFixed(1)} min.`);
process.exitCode = tests.status ?? 1;
