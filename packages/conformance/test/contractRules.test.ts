import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cloneContract, describedContract, readContractRules } from '@quotes/contract';
import {
  connectDatabase,
  type DatabaseHandle,
  type EmbeddedDatabase,
  migrateToLatest,
  type RunningServer,
  startEmbeddedPostgres,
  startServer,
} from '@quotes/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRules } from '../src/contract/plans.js';
import { testConfig } from '@quotes/server/testing';

/**
 * The contract's plan data drives every consumer: a copy of the contract whose only change is
 * the trial plan's allowance in `info.x-plans` changes the seed of a new database, what the
 * server enforces on it, the conformance oracle and the reference page's plan table.
 */
const changedAllowance = 3;
const changed = cloneContract();
const trial = (changed.info as unknown as { 'x-plans': Array<Record<string, unknown>> })['x-plans'][0]!;
trial.monthly_calls = changedAllowance;

let cluster: EmbeddedDatabase | undefined;
let database: DatabaseHandle;
let server: RunningServer;

beforeAll(async () => {
  // A throwaway cluster of its own, even when DATABASE_URL is set: the test rewrites the plans table.
  const dataDir = join(await mkdtemp(join(tmpdir(), 'contract-rules-pg-')), 'data');
  cluster = await startEmbeddedPostgres({ dataDir, persistent: false, fast: true });
  database = connectDatabase(cluster.adminUrl, { poolSize: 4 });
  await migrateToLatest(database.db, { plans: readContractRules(changed).plans });
  server = await startServer({ config: testConfig(), database });
});

afterAll(async () => {
  await server?.close();
  await database?.close();
  await cluster?.stop();
});

describe('a plan allowance changed in the contract alone', () => {
  it('is the seed of a new database', async () => {
    const row = await database.db.selectFrom('plans').selectAll().where('id', '=', 'trial').executeTakeFirstOrThrow();
    expect(row.monthly_calls).toBe(changedAllowance);
  });

  it('is what the server enforces', async () => {
    const { key } = await server.operator.createKey({ client: 'contract rules', plan: 'trial' });
    const call = () => fetch(`${server.url}/v1/quotes-categories`, { headers: { 'X-API-Key': key } });
    const first = await call();
    expect(first.status).toBe(200);
    expect(first.headers.get('X-RateLimit-Limit')).toBe(String(changedAllowance));
    for (let made = 1; made < changedAllowance; made++) expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(429);
  });

  it('is what the conformance oracle expects', () => {
    expect(planRules(changed).get('trial')?.monthlyCalls).toBe(changedAllowance);
    expect(planRules().get('trial')?.monthlyCalls).not.toBe(changedAllowance);
  });

  it('is in the reference page plan table', () => {
    const description = String((describedContract(changed).info as { description?: string }).description);
    expect(description).toContain(`| trial | ${changedAllowance} calls over its 30 days | 10 | 30 days from issue |`);
  });
});
