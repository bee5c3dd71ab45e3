// A Vitest reporter (added by scripts/testRun.mjs to every package's run): each test file's time
// (import, hooks and tests) and the run's wall time, written to .test-cost/ for the summary that
// ends `npm test`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export default class TestCostReporter {
  onInit(vitest) {
    this.root = vitest.config.root;
    this.started = performance.now();
  }

  onTestRunEnd(testModules) {
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
      }),
    );
  }
}
