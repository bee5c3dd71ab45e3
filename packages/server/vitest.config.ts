import { databaseTestConfig } from '@quotes/database/testing/vitest';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that hold a latency or a deadline (fault injection, several servers behind a pooler) run
 * after the others, one file at a time: beside 35 files in parallel workers on two cores their
 * bounds measure the machine, not the server.
 */
const timed = ['test/faults/**/*.test.ts', 'test/cluster/**/*.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...databaseTestConfig.test,
          name: 'server',
          exclude: [...configDefaults.exclude, ...timed],
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...databaseTestConfig.test,
          name: 'timed',
          include: timed,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
