import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Prism takes a few seconds to start on a loaded 2-core machine.
    hookTimeout: 60_000,
    testTimeout: 60_000,
  },
});
