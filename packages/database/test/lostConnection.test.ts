import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../testing/testDatabase.js';

let database: TestDatabase;
let handle: DatabaseHandle;
let admin: pg.Client;
beforeAll(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.url, { poolSize: 2 });
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await handle?.close();
  await database?.drop();
});

describe('a connection lost while checked out', () => {
  it('fails its next statement, not the process, and leaves the pool', async () => {
    const client = await handle.pool.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // The pool's own listener: without it, the 'error' below would end the process.
    expect(client.listenerCount('error')).toBe(1);
    const lost = new Promise((resolve) => client.once('error', resolve));
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    await lost;
    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release(true);
    expect((await handle.pool.query('SELECT 1 AS one')).rows[0]).toEqual({ one: 1 });
  });
});
