import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '@quotes/accounts/rules';
import { silentLogger } from '@quotes/service-base';
import { loadContractRouting } from '../../src/http/contractRouting.js';
import { warmUpRequestPath, warmUpUrls } from '../../src/http/requestPathWarmUp.js';
import { parseQuery, routeOf } from '../../src/http/apiCall.js';
import { createServiceRuntime, type ServiceRuntime } from '../../src/serviceRuntime.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { recordStatementsOf } from '../support/catalogFixture.js';

let database: TestDatabase;
let runtime: ServiceRuntime;
const journalRoot = mkdtempSync(join(tmpdir(), 'quotes-warm-up-test-'));
/** Every statement the runtime's pool is asked to run, as its text. */
let statements: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await loadFixtureCorpus(database);
  statements = recordStatementsOf(database.pool);
  // The server's own runtime, as startServer makes it: a journal, a usage history, the default caches.
  runtime = await createServiceRuntime(database, {
    clock: systemClock,
    log: silentLogger,
    matchSetCacheBytes: 16 << 20,
    quoteTextCacheBytes: 32 << 20,
    heldQuoteBytes: 64 << 20,
    countJournalRoot: journalRoot,
  });
});
afterAll(async () => {
  await runtime?.close();
  await database?.drop();
  rmSync(journalRoot, { recursive: true, force: true });
});

describe('warming the request path before listening', () => {
  it('writes only calls the contract accepts, of both reading operations, with every filter', async () => {
    const routing = await loadContractRouting();
    const urls = warmUpUrls();
    const filters = new Set<string>();
    for (const url of urls) {
      const { query } = parseQuery(routeOf({ method: 'GET', url }, routing), url);
      for (const name of ['category', 'mood', 'era', 'length', 'faith']) if (name in query) filters.add(name);
    }
    expect(filters.size).toBe(5);
    expect(new Set(urls.map((url) => url.split('?')[0]))).toEqual(new Set(['/v1/quotes-random', '/v1/quotes-filter']));
    expect(urls.some((url) => url.endsWith('?'))).toBe(true);
  });

  it('answers its calls through HTTP, forgets what they read, and counts, journals and records nothing', async () => {
    const outcome = await warmUpRequestPath(await loadContractRouting(), runtime, { calls: 600, deadlineMs: 60_000 });
    expect(outcome.calls).toBe(600);
    // The fixture corpus is held in memory, which answers pages: no summary is preloaded.
    expect(runtime.catalog.heldQuoteBytes).toBeGreaterThan(0);
    expect(outcome.summaries).toBe(0);
    expect(runtime.catalog.cachedMatchSetBytes).toBe(0);

    await runtime.counter.flush();
    await runtime.history?.flush();
    for (const table of [
      'monthly_usage',
      'allowance_leases',
      'usage_history',
      'usage_sightings',
      'usage_coverage',
    ] as const) {
      const { count } = await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .executeTakeFirstOrThrow();
      expect(Number(count), table).toBe(0);
    }
    expect(runtime.counter.unflushedCalls).toBe(0);
    // The server's own journal holds no line: its file is there, empty.
    const journalFiles = readdirSync(journalRoot, { recursive: true, withFileTypes: true }).filter((entry) =>
      entry.isFile(),
    );
    expect(journalFiles.length).toBeGreaterThan(0);
    for (const entry of journalFiles) expect(statSync(join(entry.parentPath, entry.name)).size).toBe(0);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(`quotes-warm-up-${process.pid}-`))).toEqual([]);

    // Every page is then answered from memory, without a statement.
    statements.length = 0;
    const routing = await loadContractRouting();
    let pages = 0;
    for (const url of warmUpUrls().filter((url) => url.startsWith('/v1/quotes-filter'))) {
      const { filter } = parseQuery(routeOf({ method: 'GET', url }, routing), url);
      if ((await runtime.catalog.page(filter, { limit: 100, offset: 0 })).items.length > 0) pages++;
    }
    expect(pages).toBeGreaterThan(0);
    expect(statements.filter((text) => !text.startsWith('SELECT 1'))).toEqual([]);
  });

  it('stops at its deadline, whatever calls it may still make', async () => {
    const started = performance.now();
    const outcome = await warmUpRequestPath(await loadContractRouting(), runtime, {
      calls: 1_000_000,
      deadlineMs: 300,
    });
    expect(performance.now() - started).toBeLessThan(1500);
    expect(outcome.calls).toBeGreaterThan(0);
    expect(outcome.calls).toBeLessThan(1_000_000);
  });
});
