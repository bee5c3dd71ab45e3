// Every package's tests in two phases, each run also reporting its cost (testCostReporter.mjs),
// printed at the end whether or not the tests passed:
// 1. `test` in every package, two packages at a time: tests that may share the machine;
// 2. `test:timed` where a package has it, one package and one file at a time, with nothing else
//    running: tests that hold a latency or a deadline.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
rmSync(join(root, '.test-cost'), { recursive: true, force: true });
const reporter = join(root, 'scripts', 'testCostReporter.mjs');
const started = performance.now();

const phaseMinutes = [];

function phase(task, concurrency) {
  const phaseStarted = performance.now();
  const run = spawnSync(
    'npx',
    // --only: npm test built everything just before, and the reporter arguments would count as a
    // change to rebuild for; --continue: every package's tests run, whichever failed.
    [
      ...['turbo', 'run', task, '--only', '--continue', `--concurrency=${concurrency}`],
      ...['--', '--reporter=default', `--reporter=${reporter}`],
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, TEST_COST_PHASE: task } },
  );
  phaseMinutes.push(`${task} ${((performance.now() - phaseStarted) / 60_000).toFixed(1)} min`);
  return run.status ?? 1;
}

const shared = phase('test', 2);
// The timed tests run even when a shared one failed: their failures are worth seeing in the same run.
const timed = phase('test:timed', 1);
spawnSync(process.execPath, [join(root, 'scripts', 'testCost.mjs')], { cwd: root, stdio: 'inherit' });
console.log(`\nTests took ${((performance.now() - started) / 60_000).toFixed(1)} min (${phaseMinutes.join(', ')}).`);
process.exitCode = shared || timed;
