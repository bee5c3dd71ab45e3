import { connectDatabase } from '@quotes/database';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { manualClock, startTestServer, type TestServer, untilStatus } from '../../testing/testServer.js';

const hourMs = 3_600_000;

// A rolled key's previous secret works on every server until the grace the holder chose ends,
// then answers 401; the new secret answers 200 from the roll on. Two servers, each with its own
// pool, cache and notification connection, and one clock moved by hand.
describe('rolling a key with a grace', () => {
  let database: TestDatabase;
  let second: ReturnType<typeof connectDatabase>;
  let one: TestServer;
  let two: TestServer;
  const time = manualClock('2026-11-27T10:00:00Z');

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadFixtureCorpus(database);
    second = connectDatabase(database.url, { poolSize: 4 });
    one = await startTestServer(database, { clock: time.clock });
    two = await startTestServer(second, { clock: time.clock });
  });

  afterAll(async () => {
    await one?.close();
    await two?.close();
    await second?.close();
    await database?.drop();
  });

  it('keeps the old secret for 1 hour on both servers, then refuses it', async () => {
    const issued = await one.createKey({ plan: 'starter' });
    // Both servers have the old secret cached before the roll.
    expect((await one.call('/v1/quotes-usage', { key: issued.key })).status).toBe(200);
    expect((await two.call('/v1/quotes-usage', { key: issued.key })).status).toBe(200);
    const rolled = await one.operator.rollKey(issued.id, { graceMs: hourMs });
    expect(rolled.key).not.toBe(issued.key);
    // The other server hears of the roll through the notification; the new secret works there too.
    await untilStatus(two, rolled.key, 200, 5000);
    for (const server of [one, two]) {
      expect((await server.call('/v1/quotes-usage', { key: issued.key })).status).toBe(200);
      expect((await server.call('/v1/quotes-usage', { key: rolled.key })).status).toBe(200);
    }
    time.advance(hourMs - 1000);
    expect((await two.call('/v1/quotes-usage', { key: issued.key })).status).toBe(200);
    time.advance(1000);
    for (const server of [one, two]) {
      expect((await server.call('/v1/quotes-usage', { key: issued.key })).status).toBe(401);
      expect((await server.call('/v1/quotes-usage', { key: rolled.key })).status).toBe(200);
    }
  });

  it('refuses the old secret at once with no grace, and a revocation ends the grace on every server', async () => {
    const issued = await one.createKey({ plan: 'starter' });
    expect((await two.call('/v1/quotes-usage', { key: issued.key })).status).toBe(200);
    const rolled = await one.operator.rollKey(issued.id);
    await untilStatus(two, issued.key, 401, 5000);
    expect((await one.call('/v1/quotes-usage', { key: issued.key })).status).toBe(401);

    const graced = await one.operator.rollKey(issued.id, { graceMs: hourMs });
    expect((await two.call('/v1/quotes-usage', { key: rolled.key })).status).toBe(200);
    expect((await two.call('/v1/quotes-usage', { key: graced.key })).status).toBe(200);
    await one.operator.revokeKey(issued.id, 'test');
    // Both of the key's cached secrets are forgotten: each is refused as revoked (403).
    await untilStatus(two, rolled.key, 403, 5000);
    expect((await two.call('/v1/quotes-usage', { key: graced.key })).status).toBe(403);
  });

  it('refuses a grace beyond 24 hours', async () => {
    const issued = await one.createKey({ plan: 'starter' });
    await expect(one.operator.rollKey(issued.id, { graceMs: 25 * hourMs })).rejects.toThrow(/grace \(ms\) must be/);
  });
});
