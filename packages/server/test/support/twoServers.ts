import type { Clock } from '@quotes/accounts/rules';
import { connectDatabase } from '@quotes/database';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { startTestServer, type TestServer } from '../../testing/testServer.js';

export interface TwoServers {
  readonly database: TestDatabase;
  readonly first: TestServer;
  /** The second server, on a pool of its own: what a second process behind a balancer would be. */
  readonly second: TestServer;
  close(): Promise<void>;
}

/** Two servers on one fresh database with the fixture corpus, each with its own pool, caches and notification connection. */
export async function startTwoServers(options: { clock?: Clock } = {}): Promise<TwoServers> {
  const database = await createTestDatabase();
  await loadFixtureCorpus(database);
  const secondPool = connectDatabase(database.url, { poolSize: 10 });
  const first = await startTestServer(database, { clock: options.clock });
  const second = await startTestServer(secondPool, { clock: options.clock });
  return {
    database,
    first,
    second,
    async close() {
      await first.close();
      await second.close();
      await secondPool.close();
      await database.drop();
    },
  };
}
