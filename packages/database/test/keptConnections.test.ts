import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle, openConnections } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../testing/testDatabase.js';

let database: TestDatabase;
let handle: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.url, { poolSize: 5, keptConnections: 3 });
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

describe('connections kept open', () => {
  it('are opened before the first call needs them, and no more than the pool holds', async () => {
    expect(handle.pool.totalCount).toBe(0);
    await openConnections(handle.pool, handle.pool.options.min ?? 0);
    expect(handle.pool.totalCount).toBe(3);
    expect(handle.pool.idleCount).toBe(3);
    await openConnections(handle.pool, 50);
    expect(handle.pool.totalCount).toBe(5);
  });
});
