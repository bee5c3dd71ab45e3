import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../src/database.js';
import { startEmbeddedPostgres } from '../src/embeddedPostgres.js';
import { migrateToLatest } from '../src/migrator.js';
import { adminQuery, withDatabaseName } from './adminQuery.js';
import type {} from './providedContext.js';

/** Migrates a new database once; test files copy it (CREATE DATABASE ... TEMPLATE) in milliseconds. */
async function createTemplate(adminUrl: string): Promise<string> {
  const name = `template_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const handle = connectDatabase(withDatabaseName(adminUrl, name), { poolSize: 1 });
  try {
    await migrateToLatest(handle.db);
  } finally {
    // A template with a connection open cannot be copied.
    await handle.close();
  }
  return name;
}

/**
 * One real PostgreSQL for the whole test run: DATABASE_URL when set (it must allow CREATE
 * DATABASE), otherwise a throwaway embedded cluster under the temp directory. Each test file
 * then creates its own database on it, a copy of the run's migrated template (testDatabase.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.DATABASE_URL;
  if (external) {
    const template = await createTemplate(external);
    project.provide('adminDatabaseUrl', external);
    project.provide('templateDatabase', template);
    return () => adminQuery(external, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  }
  const dataDir = join(await mkdtemp(join(tmpdir(), 'quotes-test-pg-')), 'data');
  const cluster = await startEmbeddedPostgres({ dataDir, persistent: false, fast: true });
  project.provide('adminDatabaseUrl', cluster.adminUrl);
  project.provide('templateDatabase', await createTemplate(cluster.adminUrl));
  return () => cluster.stop();
}
