import { databaseTestConfig } from '@quotes/database/testing/vitest';
import { defineConfig } from 'vitest/config';

/**
 * Every test here holds a deadline or a latency across processes (PostgreSQL, PgBouncer, HAProxy,
 * servers): one file at a time, so their bounds measure the cluster, not the other files.
 */
export default defineConfig({ test: { ...databaseTestConfig.test, fileParallelism: false } });
