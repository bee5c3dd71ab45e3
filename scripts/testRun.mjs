// Every package's tests in two phases, each run also reporting its cost (testCostReporter.mjs),
// printed at the end whether or not the tests passed:
// 1. `test`, which may share the machine, in two lanes at once: the server's (the longest, about
//    half of the phase) from the start, and every other package's one after another beside it;
// 2. `test:timed` where a package has it, one package and one file at a time, with nothing else
//    running: tests that hold a latency or a deadline.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
rmSync(join(root, '.test-cost'), { recursive: true, force: true });
const reporter = join(root, 'scripts', 'testCostReporter.mjs');
const started = performance.now();
const minutesSince = (at) => `${((performance.now() - at) / 60_000).toFixed(1)} min`;

/** One turbo run of `task`; resolves with its exit status. */
async function lane(task, filters) {
  const child = spawn(
    'npx',
    [
      // --only: npm test built everything just before, and the reporter arguments would count as a
      // change to rebuild for; --continue: every package's tests run, whichever failed.
      ...['turbo', 'run', task, '--only', '--continue', '--concurrency=1', ...filters],
      ...['--', '--reporter=default', `--reporter=${reporter}`],
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, TEST_COST_PHASE: task } },
  );
  const [code] = await once(child, 'exit');
  return code ?? 1;
}

const sharedStarted = performance.now();
const shared = await Promise.all([
  lane('test', ['--filter=@quotes/server']),
  lane('test', ['--filter=!@quotes/server']),
]);
const sharedTook = minutesSince(sharedStarted);
// The timed tests run even when a shared one failed: their failures are worth seeing in the same run.
const timedStarted = performance.now();
const timed = await lane('test:timed', []);
const timedTook = minutesSince(timedStarted);
await once(spawn(process.execPath, [join(root, 'scripts', 'testCost.mjs')], { cwd: root, stdio: 'inherit' }), 'exit');
console.log(`\nTests took ${minutesSince(started)} (test ${sharedTook}, test:timed ${timedTook}).`);
process.exitCode = shared.some((code) => code !== 0) || timed !== 0 ? 1 : 0;
