import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { historyOf } from '@quotes/accounts';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { manualClock, startTestServer, type TestServer } from '../../testing/testServer.js';

// What the usage history counts as refused calls (the console's overview and the holders'
// pages chart it): calls to the API only, never a browser's favicon or a scanner's probe.
let database: TestDatabase;
let server: TestServer;
const clock = manualClock('2026-11-29T10:00:00Z');

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
  server = await startTestServer(database, { clock: clock.clock });
});
afterAll(async () => {
  await server?.close();
  await database?.drop();
});

describe('refusals in the usage history', () => {
  it('counts /v1 calls only', async () => {
    for (const path of ['/favicon.ico', '/wp-login.php', '/v1x', '/v1/quotes-random', '/v1/no-such-thing'])
      await (await fetch(`${server.url}${path}`)).arrayBuffer();
    await server.flushUsageHistory();
    const rows = await historyOf(
      database.db,
      null,
      { from: new Date('2026-11-29T00:00:00Z'), to: new Date('2026-11-30T00:00:00Z') },
      'day',
    );
    // The call without a key and the unknown API path: two refusals; the three other paths none.
    expect(rows.map((row) => [row.outcome, row.calls])).toEqual([
      ['missing-api-key', 1],
      ['not-found', 1],
    ]);
  });
});
