import { randomBytes } from 'node:crypto';
import type { PlanRules } from '@quotes/contract';
import { inject } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../src/database.js';
import { migrateToLatest } from '../src/migrator.js';
import { serverConnections } from '../src/serverConnections.js';
import { adminQuery, withDatabaseName } from './adminQuery.js';
import type {} from './providedContext.js';

export interface TestDatabase extends DatabaseHandle {
  /** Drops the database, ending every session on it, then closes the pool. */
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database on the run's real PostgreSQL, private to the caller: a copy of the
 * run's template, or migrated anew when `plans` seeds other plans than the contract's (for tests
 * of a changed contract). It connects as a server does (generic plans); the servers' statement
 * deadlines are left to the tests that start a server with its configuration.
 */
export async function createTestDatabase(
  options: { poolSize?: number; plans?: readonly PlanRules[] } = {},
): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(
    adminUrl,
    options.plans ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`,
  );
  const handle = connectDatabase(withDatabaseName(adminUrl, name), {
    ...serverConnections({}),
    poolSize: options.poolSize ?? 10,
  });
  if (options.plans) await migrateToLatest(handle.db, { plans: options.plans });
  return {
    ...handle,
    async drop() {
      // Dropped first: a session a failed test left mid-statement (a COPY never ended, a client
      // never released) would hold pool.end() forever, and PostgreSQL's DROP DATABASE of every
      // later file waits for such a session too. FORCE ends them, so the pool closes.
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await handle.close();
    },
  };
}
