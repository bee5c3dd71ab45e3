import type { Clock } from '@quotes/accounts/rules';
import type { Logger } from '@quotes/service-base';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { startTestServer, type TestServer } from '../../testing/testServer.js';

export interface HttpFixture {
  database: TestDatabase;
  server: TestServer;
  close(): Promise<void>;
}

/** A fresh database with the fixture corpus and a server on it, on a free port. */
export async function httpFixture(
  options: { clock?: Clock; logger?: Logger; corpus?: boolean } = {},
): Promise<HttpFixture> {
  const database = await createTestDatabase();
  if (options.corpus !== false) await loadFixtureCorpus(database);
  const server = await startTestServer(database, { clock: options.clock, logger: options.logger });
  return {
    database,
    server,
    async close() {
      await server.close();
      await database.drop();
    },
  };
}

/** httpFixture with one key on `plan`, for a file whose calls all carry it. */
export async function httpFixtureWithKey(
  plan: string,
  options: Parameters<typeof httpFixture>[0] = {},
): Promise<{ fixture: HttpFixture; key: string }> {
  const fixture = await httpFixture(options);
  return { fixture, key: (await fixture.server.createKey({ plan })).key };
}
