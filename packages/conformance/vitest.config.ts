import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One module graph per worker, not per file (decision 0056).
    isolate: false,
    // Real processes (Prism, Dredd, PostgreSQL, the server) on a shared 2-core machine.
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
