import { databaseTestConfig, timedTestSettings } from '@quotes/database/testing/vitest';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that hold a latency or a deadline (fault injection, several servers behind a pooler) are
 * the `timed` project: `test:timed` runs them one file at a time with nothing else running (npm
 * run test:timed), since beside other files on two cores their bounds measure the machine,
 * not the server. `test` runs the rest, which may share the machine.
 */
const timed = [
  'test/faults/**/*.test.ts',
  'test/cluster/**/*.test.ts',
  // Its peak memory depends on how many calls arrive while a flush is writing: the machine's speed.
  'test/data/usageHistoryMemory.test.ts',
  // Latencies of paying callers beside a flood of the public forms, and a sign-in's timing.
  'test/keyRequests/publicFlood.test.ts',
  'test/account/signInTiming.test.ts',
];

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
          ...timedTestSettings,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
