import { databaseTestConfig, timedTestSettings } from '@quotes/database/testing/vitest';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The tests here that hold no deadline or latency: they share the machine with other packages'
 * tests. The kills under load among them: what they prove is a count, which a busy machine must
 * not change.
 */
const untimed = [
  'test/clusterCommand.test.ts',
  'test/deployFiles.test.ts',
  'test/killedServerCounts.test.ts',
  'test/restartBackoff.test.ts',
];

/**
 * Every other test holds a deadline or a latency across processes (PostgreSQL, PgBouncer,
 * HAProxy, servers): `test:timed` runs them one file at a time, with nothing else running
 * (npm run test:timed), so their bounds measure the cluster, not the machine.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { ...databaseTestConfig.test, name: 'cluster', include: untimed } },
      {
        test: {
          ...databaseTestConfig.test,
          name: 'timed',
          exclude: [...configDefaults.exclude, ...untimed],
          ...timedTestSettings,
        },
      },
    ],
  },
});
