import { configDefaults, defineConfig } from 'vitest/config';

/** The whole bench, end to end: it loads the machine, so `test:timed` runs it alone (npm run test:timed). */
const wholeBench = ['test/benchRun.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'bench',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...wholeBench],
          // One module graph per worker, not per file (decision 0056).
          isolate: false,
          // Some start `npm run bench` as a process: seconds on a busy machine.
          testTimeout: 30_000,
        },
      },
      { test: { name: 'timed', include: wholeBench, testTimeout: 300_000 } },
    ],
  },
});
