import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One module graph per worker, not per file (decision 0056).
    isolate: false,
    globalSetup: ['testing/globalDatabase.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
