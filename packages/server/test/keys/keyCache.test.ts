import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyCache } from '../../src/keys/keyCache.js';

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
