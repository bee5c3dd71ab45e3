// A Vitest reporter (added by scripts/testRun.mjs to every package's run): each test file's time
// (import, hooks and tests), the run's wall time, each failure's name and first line, and each test
// that passed only on its second try (timedTestSettings), written to .test-cost/ for the summary
// that ends `npm test` (the part of a long log that is read).
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export default class TestCostReporter {
  onInit(vitest) {
    this.root = vitest.config.root;
    this.started = performance.now();
  }

  onTestRunEnd(testModules, unhandledErrors) {
    const firstLine = (error) =>
      String(error?.message ?? error)
        .split('\n')[0]
        .slice(0, 300);
    const failures = [];
    const secondTries = [];
    for (const module of testModules) {
      const file = relative(root, module.moduleId);
      for (const error of module.errors()) failures.push({ file, test: '(file)', error: firstLine(error) });
      for (const test of module.children.allTests('failed'))
        failures.push({ file, test: test.fullName, error: firstLine(test.result().errors?.[0]) });
      for (const test of module.children.allTests('passed'))
        if (test.diagnostic()?.flaky) secondTries.push({ file, test: test.fullName });
    }
    for (const error of unhandledErrors ?? [])
      failures.push({ file: '(run)', test: '(unhandled)', error: firstLine(error) });
    const files = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      return {
        file: relative(root, module.moduleId),
        ms: Math.round(diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration),
      };
    });
    const dir = join(root, '.test-cost');
    mkdirSync(dir, { recursive: true });
    // One file per package and phase (scripts/testRun.mjs names the phase): test, test:timed.
    const phase = process.env.TEST_COST_PHASE ?? 'test';
    writeFileSync(
      join(dir, `${basename(this.root)}.${phase.replace(':', '-')}.json`),
      JSON.stringify({
        package: relative(root, this.root),
        phase,
        wallMs: Math.round(performance.now() - this.started),
        files,
        failures,
        secondTries,
      }),
    );
  }
}
