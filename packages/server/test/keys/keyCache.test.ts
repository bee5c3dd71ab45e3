import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyCache } from '../../src/keys/keyCache.js';
import { createOperatorApi } from '@quotes/accounts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

/** Counts the statements the key cache sends, on the real database. */
class StatementCounter implements KyselyPlugin {
  statements = 0;
  transformQuery(args: PluginTransformQueryArgs) {
    this.statements++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}

describe('KeyCache look-ups', () => {
  it('costs statements by the batch, one at a time, not by the key: 2,000 unknown keys at once take 5', async () => {
    const counter = new StatementCounter();
    const cache = new KeyCache(database.db.withPlugin(counter), () => true);
    const keys = Array.from({ length: 2000 }, (_, index) => `qk_${String(index).padStart(24, 'Y')}`);
    const found = await Promise.all(keys.map((key) => cache.lookup(key)));
    expect(found.every((record) => record === undefined)).toBe(true);
    // The first key goes out alone; the 1,999 that arrive while it runs follow in batches of 500.
    expect(counter.statements).toBe(5);
  });
});

describe('KeyCache entries', () => {
  async function issuedKeys(count: number): Promise<{ id: string; key: string }[]> {
    const operator = createOperatorApi(database);
    return Promise.all(
      Array.from({ length: count }, (_, index) => operator.createKey({ client: `Cache ${index}`, plan: 'starter' })),
    );
  }

  it('answers a known key from memory until it is invalidated, then reads it again', async () => {
    const counter = new StatementCounter();
    const cache = new KeyCache(database.db.withPlugin(counter), () => true);
    const [issued] = await issuedKeys(1);
    expect((await cache.lookup(issued!.key))?.id).toBe(issued!.id);
    expect((await cache.lookup(issued!.key))?.id).toBe(issued!.id);
    expect(counter.statements).toBe(1);
    cache.invalidate(issued!.id);
    expect(cache.size).toBe(0);
    await cache.lookup(issued!.key);
    expect(counter.statements).toBe(2);
  });

  it("forgets a key's secret cached before a roll once it reads the rolled key, before any notification", async () => {
    const counter = new StatementCounter();
    const cache = new KeyCache(database.db.withPlugin(counter), () => true);
    const [issued] = await issuedKeys(1);
    expect((await cache.lookup(issued!.key))?.previousValidUntil).toBeNull();
    const until = new Date(Date.now() + 3_600_000);
    const rolled = await createOperatorApi(database).rollKey(issued!.id, { graceMs: 3_600_000 });
    // No invalidate(): the notification has not arrived. The new secret's read shows the roll...
    expect((await cache.lookup(rolled.key))?.id).toBe(issued!.id);
    expect(counter.statements).toBe(2);
    // ...so the old secret is read again, and now carries its grace.
    const old = await cache.lookup(issued!.key);
    expect(counter.statements).toBe(3);
    expect(Math.abs((old?.previousValidUntil?.getTime() ?? 0) - until.getTime())).toBeLessThan(60_000);
    // Both secrets in the same state: each answered from memory.
    await cache.lookup(rolled.key);
    await cache.lookup(issued!.key);
    expect(counter.statements).toBe(3);
  });

  it('trusts an entry for the TTL at most, and nothing while notifications are not arriving', async () => {
    const counter = new StatementCounter();
    let notificationsArrive = true;
    const cache = new KeyCache(database.db.withPlugin(counter), () => notificationsArrive, 100);
    const [issued] = await issuedKeys(1);
    await cache.lookup(issued!.key);
    await cache.lookup(issued!.key);
    expect(counter.statements).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await cache.lookup(issued!.key);
    expect(counter.statements).toBe(2);
    notificationsArrive = false;
    await cache.lookup(issued!.key);
    expect(counter.statements).toBe(3);
  });

  it('holds at most maxEntries keys, the least recently used leaving first', async () => {
    const cache = new KeyCache(database.db, () => true, 60_000, 3);
    const keys = await issuedKeys(4);
    for (const { key } of keys.slice(0, 3)) await cache.lookup(key);
    await cache.lookup(keys[0]!.key);
    await cache.lookup(keys[3]!.key);
    expect(cache.size).toBe(3);
    // The second key was the least recently used: it went, and invalidating it finds nothing to drop.
    cache.invalidate(keys[1]!.id);
    expect(cache.size).toBe(3);
    cache.invalidate(keys[0]!.id);
    expect(cache.size).toBe(2);
  });
});
