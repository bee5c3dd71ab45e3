import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/embeddedPostgres.js';
import { freePort } from '../src/freePort.js';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}

/**
 * One real PostgreSQL for the whole test run: DATABASE_URL when set (it must allow CREATE
 * DATABASE), otherwise a throwaway embedded cluster under the temp directory. Each test file
 * then creates its own database on it (see testDatabase.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.DATABASE_URL;
  if (external) {
    project.provide('adminDatabaseUrl', external);
    return async () => undefined;
  }
  const dataDir = join(await mkdtemp(join(tmpdir(), 'quotes-test-pg-')), 'data');
  const cluster = await startEmbeddedPostgres({ dataDir, port: await freePort(), persistent: false, fast: true });
  project.provide('adminDatabaseUrl', cluster.adminUrl);
  return () => cluster.stop();
}
