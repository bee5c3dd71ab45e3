import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { PlanRules } from '@quotes/contract';
import { inject } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../src/database.js';
import { migrateToLatest } from '../src/migrator.js';

export interface TestDatabase extends DatabaseHandle {
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(sqlText: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await client.connect();
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, migrated database on the run's real PostgreSQL, private to the caller; `plans` seeds
 * other plans than the contract's (for tests of a changed contract).
 */
export async function createTestDatabase(
  options: { poolSize?: number; plans?: readonly PlanRules[] } = {},
): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const handle = connectDatabase(withDatabase(inject('adminDatabaseUrl'), name), { poolSize: options.poolSize ?? 10 });
  await migrateToLatest(handle.db, { plans: options.plans });
  return {
    ...handle,
    async drop() {
      await handle.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
