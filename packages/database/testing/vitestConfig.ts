import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Vitest settings for a package whose tests run on the real PostgreSQL of this package's test
 * support: one cluster per run (globalDatabase.ts), a database per test file, files in parallel
 * workers.
 */
export const databaseTestConfig = defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: [fileURLToPath(new URL('./globalDatabase.ts', import.meta.url))],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    // A worker runs its files on one module graph instead of loading it again for every file: half
    // the CPU of a run (decision 0056). Tests keep no state in modules they share.
    isolate: false,
    // Vitest's default is one worker per core less one: a single worker on two cores. Files
    // mostly wait on PostgreSQL, servers and timers, so two share two cores well.
    maxWorkers: 2,
  },
});

/**
 * What a `timed` project adds (tests holding a deadline, a latency or a rate over real time, run
 * alone in npm run test:timed): one file at a time, and one more try for a test that failed,
 * since a shared machine (CI's) can stall a whole window once. A test that passes on its second
 * try is listed under "Passed on a second try" at the end of npm test: it is seen, not hidden.
 * Each file gets its own module graph, so no file's heap or timers weigh on another's figures.
 */
export const timedTestSettings = { fileParallelism: false, retry: 1, isolate: true } as const;
