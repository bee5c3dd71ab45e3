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
    // Vitest's default is one worker per core less one: a single worker on two cores. Files
    // mostly wait on PostgreSQL, servers and timers, so two share two cores well.
    maxWorkers: 2,
  },
});
