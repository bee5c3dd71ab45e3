import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One module graph per worker, not per file (decision 0056).
    isolate: false,
    // Chromium takes seconds to start and to lay out the reference page on a loaded 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
