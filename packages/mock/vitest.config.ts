import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One module graph per worker, not per file (decision 0056).
    isolate: false,
    // The parity test runs the real server beside the mock, on this run's real PostgreSQL.
    globalSetup: [fileURLToPath(import.meta.resolve('@quotes/database/testing/global-setup'))],
    // Prism takes a few seconds to start on a loaded 2-core machine.
    hookTimeout: 60_000,
    testTimeout: 60_000,
  },
});
