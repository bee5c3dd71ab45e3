import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/globalDatabase.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores: files run in parallel workers, each on its own database.
    fileParallelism: true,
  },
});
