import { defineConfig } from 'vitest/config';

export default defineConfig({
  // One module graph per worker, not per file (decision 0056).
  // Its tests run npm, tsc and the generators as processes: seconds each on a busy machine.
  test: { include: ['test/**/*.test.ts'], isolate: false, testTimeout: 30_000 },
});
