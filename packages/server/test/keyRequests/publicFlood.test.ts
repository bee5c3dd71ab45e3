import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { type RunningServer, startServer } from '../../src/startServer.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { testConfig } from '../../testing/testConfig.js';
import { manualClock } from '../../testing/testServer.js';
import { requestBody } from '../../testing/keyRequestClient.js';

// Strangers flooding the public forms beside two paying callers, over real HTTP on a real
// PostgreSQL and a real SMTP server: 200 networks (fresh /24s, each one's first request admitted
// even while the service is busy) post the key-request form and the sign-in form as fast as they
// are answered, while two callers read quotes-filter from PostgreSQL. The callers' figures alone
// (10 s) and beside the flood (20 s) are measured in this test; the figures go to
// test-output/public-flood.json.
//
// Settings beyond testConfig, and why: TRUST_PROXY=loopback, so X-Forwarded-For names the 200
// networks (as a proxy in front of the service would); QUOTE_CACHE_MB, QUOTE_HOLD_MB and
// QUOTE_FILE_MB at 0, so every call reads its quotes from PostgreSQL (the database the forms' bulkhead keeps apart).

/** What this test reads of autocannon's result (latencies in whole milliseconds). */
interface LoadResult {
  '2xx': number;
  errors: number;
  timeouts: number;
  non2xx: number;
  latency: { p50: number; p99: number; max: number };
  statusCodeStats?: Record<string, { count: number | string }>;
}
interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: Record<string, unknown>,
) => Promise<LoadResult>;

// The flood of 20 s the service is held to (both forms, 200 networks). The callers alone give only
// the baseline p99: 10 s of two connections is thousands of answers (3,748 seen on a shared machine,
// about 10,000 on a quieter one), so the p99 is the 37th slowest or beyond, not one stray answer.
const windowSeconds = 20;
const aloneSeconds = 10;
const networks = 200;
const floodConnections = 60;
const mailBudget = testConfig().UNPROVEN_MAILS_PER_HOUR;

let database: TestDatabase;
let inbox: SmtpInbox;
let server: RunningServer;
let apiKey: string;
const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  await loadFixtureCorpus(database);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await inbox?.close();
  await database?.drop();
});

/** A server on the tables as the fixture left them (a retry of the test starts afresh). */
async function startFreshServer(): Promise<void> {
  await server?.close();
  await sql`TRUNCATE key_requests, account_sign_ins, unproven_mail_hours`.execute(database.db);
  inbox.messages.length = 0;
  server = await startServer({
    config: testConfig({
      SMTP_URL: inbox.url,
      MAIL_FROM: 'Keys <keys@quotes.example.test>',
      TRUST_PROXY: 'loopback',
      QUOTE_CACHE_MB: '0',
      QUOTE_HOLD_MB: '0',
      QUOTE_FILE_MB: '0',
    }),
    database,
    // One hour throughout: the budget's window does not turn over during the run.
    clock: manualClock('2026-11-29T09:10:00Z').clock,
    shutdownGraceMs: 2000,
  });
  apiKey = (
    await server.operator.createKey({
      client: 'Paying caller',
      email: 'payer@example.com',
      plan: 'enterprise',
      unlimited: true,
      allowAnotherTrial: true,
    })
  ).key;
}

interface CallerFigures {
  answered: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
}

/** Two callers, each calling again as soon as answered, for `seconds`; in a worker thread of their own. */
async function payingCallers(seconds: number): Promise<CallerFigures> {
  const result = await autocannon({
    url: `${server.url}/v1/quotes-filter?category=grief&limit=5`,
    connections: 2,
    duration: seconds,
    headers: { 'X-API-Key': apiKey },
    workers: 1,
  });
  return {
    answered: result['2xx'],
    errors: result.errors + result.timeouts + result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
  };
}

/** A fixed form token (the sign-in form's double-submit cookie and field). */
const formToken = 'f'.repeat(43);

/** Each network's key request and sign-in post, from its own /24 (198.18.0.0/15 is set aside for benchmarks). */
function floodRequests(): LoadRequest[] {
  const requests: LoadRequest[] = [];
  for (let network = 0; network < networks; network++) {
    const from = `198.${18 + (network >> 8)}.${network & 255}.${1 + (network % 250)}`;
    requests.push({
      method: 'POST',
      path: '/keys/requests',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': from },
      body: requestBody({ email: `flood-${network}@example.com` }),
    });
    requests.push({
      method: 'POST',
      path: '/account/sign-in-link',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Forwarded-For': from,
        Cookie: `quotes_account_form=${formToken}`,
        Accept: 'text/html',
      },
      body: new URLSearchParams({ _csrf: formToken, email: `flood-${network}@example.com` }).toString(),
    });
  }
  return requests;
}

async function flood(): Promise<{ posts: number; statuses: Record<string, number> }> {
  const result = await autocannon({
    url: server.url,
    connections: floodConnections,
    duration: windowSeconds,
    requests: floodRequests(),
    workers: 1,
  });
  const statuses: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[status] = Number(count);
  return { posts: Object.values(statuses).reduce((sum, count) => sum + count, 0), statuses };
}

describe('a flood of strangers at the public forms', { timeout: 120_000 }, () => {
  it('leaves the paying callers their speed and mails no more than the budget', async () => {
    await startFreshServer();
    // Warm: the first calls after a start pay for connections and plans.
    await payingCallersFor(2);
    const alone = await payingCallers(aloneSeconds);
    const [beside, posted] = await Promise.all([payingCallers(windowSeconds), flood()]);
    // Mails in flight are handed over before the server closes.
    await server.close();
    // Each accepted request's mail, should the SMTP server still be taking it in (10 s at most).
    await inbox.waitFor(await countRows('key_requests')).catch(() => undefined);
    const count = countRows;
    const keyRequests = await count('key_requests');
    const signIns = await count('account_sign_ins');
    const budgetTaken = Number(
      (await database.db.selectFrom('unproven_mail_hours').select('mails').executeTakeFirst())?.mails ?? 0,
    );
    const mailed = inbox.messages.length;

    const row = (name: string, figures: CallerFigures) =>
      `${name.padEnd(14)}${String(figures.answered).padStart(9)}${String(figures.p50).padStart(7)}${String(figures.p99).padStart(7)}${String(figures.max).padStart(7)}`;
    const table = [
      `paying callers (2, quotes-filter from PostgreSQL), ${aloneSeconds} s alone, ${windowSeconds} s beside the flood:`,
      `${''.padEnd(14)}${'answered'.padStart(9)}${'p50'.padStart(7)}${'p99'.padStart(7)}${'max'.padStart(7)}  (ms)`,
      row('alone', alone),
      row('beside flood', beside),
      `flood: ${networks} networks, ${floodConnections} connections, ${posted.posts} posts ${JSON.stringify(posted.statuses)}`,
      `accepted: ${keyRequests} key requests, ${signIns} sign-in links; budget taken ${budgetTaken} of ${mailBudget}; mails sent ${mailed}`,
    ].join('\n');
    console.log(table);
    mkdirSync(outputDir, { recursive: true });
    writeFileSync(
      `${outputDir}public-flood.json`,
      `${JSON.stringify({ windowSeconds, aloneSeconds, networks, floodConnections, alone, beside, posted, keyRequests, signIns, budgetTaken, mailed }, null, 2)}\n`,
    );

    expect(alone.errors).toBe(0);
    expect(beside.errors).toBe(0);
    expect(beside.p99).toBeLessThanOrEqual(2 * alone.p99);
    // Every accepted post took one place of the hour's budget, and no more were taken than it holds.
    expect(budgetTaken).toBe(keyRequests + signIns);
    expect(budgetTaken).toBeLessThanOrEqual(mailBudget);
    // Each accepted key request was mailed once; no flood address holds a key, so no sign-in link was.
    expect(mailed).toBe(keyRequests);
    // Every post was answered in words: accepted, refused by a bound (429) or by the full queue (503).
    expect(Object.keys(posted.statuses).every((status) => ['202', '429', '503'].includes(status))).toBe(true);
  });
});

/** Rows in a table of the flood's: what the bounds let through. */
async function countRows(table: 'key_requests' | 'account_sign_ins'): Promise<number> {
  const row = await database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A short run of the callers, not measured. */
async function payingCallersFor(seconds: number): Promise<void> {
  await autocannon({
    url: `${server.url}/v1/quotes-filter?category=grief&limit=5`,
    connections: 2,
    duration: seconds,
    headers: { 'X-API-Key': apiKey },
  });
}
