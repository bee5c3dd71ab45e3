import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../testing/testDatabase.js';

// Run on a direct connection, where session state would be visible if it were left: the pool has
// one connection, so every statement below meets what the ones before it left behind.
let database: TestDatabase;
let pooled: DatabaseHandle;
let direct: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
  const options = { poolSize: 1, statementTimeoutMs: 700, genericPlans: true };
  pooled = connectDatabase(database.url, {
    ...options,
    poolMode: 'transaction',
    directUrl: 'postgres://direct/quotes',
  });
  direct = connectDatabase(database.url, options);
});
afterAll(async () => {
  await pooled?.close();
  await direct?.close();
  await database?.drop();
});

const setting = async (handle: DatabaseHandle, name: string) =>
  (await handle.pool.query<{ value: string }>('SELECT current_setting($1) AS value', [name])).rows[0]?.value;

const preparedNames = async (handle: DatabaseHandle) =>
  (await handle.pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements')).rows.map((row) => row.name);

describe('a pool behind a transaction pooler', () => {
  it('leaves no session setting: the deadline is set per transaction', async () => {
    expect(await setting(pooled, 'statement_timeout')).toBe('0');
    expect(await setting(pooled, 'plan_cache_mode')).toBe('auto');
    const inside = await pooled.db
      .transaction()
      .execute(
        async (trx) =>
          (await sql<{ value: string }>`SELECT current_setting('statement_timeout') AS value`.execute(trx)).rows[0]
            ?.value,
      );
    expect(inside).toBe('700ms');
    expect(await setting(pooled, 'statement_timeout')).toBe('0');
    // The direct pool sets both for its sessions.
    expect(await setting(direct, 'statement_timeout')).toBe('700ms');
    expect(await setting(direct, 'plan_cache_mode')).toBe('force_generic_plan');
  });

  it('cancels a statement of a transaction at the deadline, as PostgreSQL does', async () => {
    const client = await pooled.pool.connect();
    try {
      await client.query('BEGIN');
      await expect(client.query('SELECT pg_sleep(3)')).rejects.toMatchObject({ code: '57014' });
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });

  it('sends named statements unnamed, so none is left prepared on the connection', async () => {
    const named = { name: 'answer', text: 'SELECT $1::int + 1 AS answer', values: [41] };
    expect((await pooled.pool.query(named)).rows).toEqual([{ answer: 42 }]);
    expect(await preparedNames(pooled)).toEqual([]);
    // The same query on the direct pool stays prepared, by name.
    await direct.pool.query(named);
    expect(await preparedNames(direct)).toEqual(['answer']);
  });

  it('keeps the direct URL for sessions apart from the pooled one', () => {
    expect(pooled.directUrl).toBe('postgres://direct/quotes');
    expect(direct.directUrl).toBe(database.url);
  });
});
