import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: [fileURLToPath(import.meta.resolve('@quotes/database/testing/global-setup'))],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two cores: files run in parallel workers, each on its own database.
    fileParallelism: true,
  },
});
