import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One module graph per worker, not per file (decision 0056).
    isolate: false,
    // The published packages packed once for both files.
    globalSetup: [fileURLToPath(new URL('./test/support/packedTarballs.ts', import.meta.url))],
    // Packing, installing from the registry and starting Prism and PostgreSQL on a shared 2-core machine.
    hookTimeout: 240_000,
    testTimeout: 180_000,
  },
});
