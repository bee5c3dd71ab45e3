import { defineConfig } from 'vitest/config';

export default defineConfig({
  // One module graph per worker, not per file (decision 0056).
  test: { include: ['test/**/*.test.ts'], isolate: false },
});
