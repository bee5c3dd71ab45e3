import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One module graph per worker, not per file (decision 0056).
    isolate: false,
    // Prism takes a few seconds to start on a loaded 2-core machine.
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
