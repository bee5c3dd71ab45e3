// Every package's tests of one tier, each run also reporting its cost (testCostReporter.mjs),
// printed at the end whether or not the tests passed:
// - `test` (npm test), which may share the machine: two packages at a time, the longest first (the
//   server's, about half of the tier, from the start);
// - `test:timed` (npm run test:timed) where a package has it, one package and one file at a time,
//   with nothing else running: tests that hold a latency or a deadline.
// The packages were built just before (the npm script's first step).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { globSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const tiers = { test: { lanes: 2 }, 'test:timed': { lanes: 1 } };
const tier = process.argv[2];
if (!Object.hasOwn(tiers, tier)) {
  console.error(`testRun: the tier is one of ${Object.keys(tiers).join(', ')}; got "${tier ?? ''}"`);
  process.exit(2);
}
rmSync(join(root, '.test-cost'), { recursive: true, force: true });
const reporter = join(root, 'scripts', 'testCostReporter.mjs');
const started = performance.now();
const minutesSince = (at) => `${((performance.now() - at) / 60_000).toFixed(1)} min`;

const workspaces = ['openapi', ...globSync('packages/*', { cwd: root })].map((dir) => {
  const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  return {
    name: manifest.name,
    scripts: manifest.scripts ?? {},
    files: globSync('test/**/*.test.ts', { cwd: join(root, dir) }).length,
  };
});

// A package's run that outlasts this (about three times the slowest's) is stopped and failed, so a
// hung test fails the run in minutes instead of holding CI to its hard limit.
const packageDeadlineMs = 20 * 60_000;
const running = new Set();
// Runs in groups of their own do not hear the terminal's Ctrl-C: it is passed on.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const pid of running) process.kill(-pid, 'SIGKILL');
    process.exit(130);
  });
}

/** `npm run SCRIPT` in one package, its output prefixed with the package's name; resolves with its exit status. */
async function run(name, script) {
  const child = spawn('npm', ['run', script, '-w', name, '--', '--reporter=default', `--reporter=${reporter}`], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TEST_COST_PHASE: script },
    // Its own process group, so the deadline stops vitest, its workers and their servers with it.
    detached: true,
  });
  running.add(child.pid);
  const deadline = setTimeout(() => {
    console.log(`${name}:${script}: stopped after ${packageDeadlineMs / 60_000} min, its deadline`);
    process.kill(-child.pid, 'SIGKILL');
  }, packageDeadlineMs);
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream.on('data', (chunk) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      for (const line of lines) process.stdout.write(`${name}:${script}: ${line}\n`);
    });
    stream.on('end', () => partial && process.stdout.write(`${name}:${script}: ${partial}\n`));
  }
  const [code] = await once(child, 'exit');
  clearTimeout(deadline);
  running.delete(child.pid);
  if (code !== 0) console.log(`${name}:${script}: FAILED (exit ${code})`);
  return { name, script, code: code ?? 1 };
}

/** Runs each package's `script`, `lanes` at a time, taking them in the order given; every one runs whatever fails. */
async function phase(script, lanes, packages) {
  const queue = [...packages];
  const results = [];
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) results.push(await run(next.name, script));
    }),
  );
  return results;
}

// The longest first, so that no long package starts late and runs alone at the end: seconds each
// package's `test` took in a fresh clone's run (2026-11-29, Node 24, two lanes). Only the order
// matters; a package not listed goes after these, those with more test files first.
const typicalSeconds = {
  '@quotes/server': 289,
  '@quotes/operator': 142,
  '@quotes/mock': 134,
  '@quotes/docs': 101,
  '@quotes/consumer': 90,
  '@quotes/conformance': 86,
  '@quotes/cluster': 84,
  '@quotes/bench': 49,
  '@quotes/corpus': 47,
  '@quotes/client': 32,
  '@quotes/accounts': 16,
};
const packages = workspaces
  .filter((pkg) => pkg.scripts[tier])
  .sort((a, b) => (typicalSeconds[b.name] ?? 0) - (typicalSeconds[a.name] ?? 0) || b.files - a.files);
const results = await phase(tier, tiers[tier].lanes, packages);
await once(spawn(process.execPath, [join(root, 'scripts', 'testCost.mjs')], { cwd: root, stdio: 'inherit' }), 'exit');
const failed = results.filter((result) => result.code !== 0);
for (const result of failed) console.log(`FAILED: ${result.name} ${result.script}`);
console.log(`\n${tier} took ${minutesSince(started)}.`);
process.exitCode = failed.length > 0 ? 1 : 0;
