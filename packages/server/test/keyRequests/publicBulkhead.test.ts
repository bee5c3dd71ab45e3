import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { busyRetryAfterSeconds } from '../../src/http/publicPagesBulkhead.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { type PostAnswer, post, requestBody, startServerMailingTo } from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { testConfig } from '../../testing/testConfig.js';

// The public pages' bulkhead, over real HTTP on a real PostgreSQL: while every key request
// waits on the lock they are recorded under (held here by another session, as a slow commit
// would), the API's calls still find their connections, only the public pages' own pool waits on
// the lock, and a post past the bounded queue is refused in words, unworked.
// Settings beyond testConfig, and why: QUOTE_CACHE_MB, QUOTE_HOLD_MB and QUOTE_FILE_MB at 0, so
// each API call reads PostgreSQL (a call answered from memory would prove nothing of the pool).
const config = testConfig({ QUOTE_CACHE_MB: '0', QUOTE_HOLD_MB: '0', QUOTE_FILE_MB: '0' });

let database: TestDatabase;
let inbox: SmtpInbox;
let server: RunningServer;
let apiKey: string;

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  await loadFixtureCorpus(database);
  server = await startServerMailingTo(database, inbox, {
    config: testConfig({
      QUOTE_CACHE_MB: '0',
      QUOTE_HOLD_MB: '0',
      QUOTE_FILE_MB: '0',
      SMTP_URL: inbox.url,
      MAIL_FROM: 'Keys <keys@quotes.example.test>',
    }),
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
}, 60_000);
afterAll(async () => {
  await server?.close();
  await inbox?.close();
  await database?.drop();
});

/** Takes the key requests' lock in a session of its own; release() commits. */
async function holdKeyRequestLock(): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query("SELECT pg_advisory_xact_lock(hashtext('quotes:key-requests'))");
  return {
    async release() {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/** Sessions of this database waiting for a lock (the key requests' posts behind the one held). */
async function waitingOnLocks(): Promise<number> {
  const { rows } = await database.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
  );
  return rows[0]!.n;
}

async function until(condition: () => Promise<boolean>, withinMs: number): Promise<void> {
  for (const deadline = Date.now() + withinMs; !(await condition()); ) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let networkSeq = 0;
/** A key request from a network of its own (a /24 nothing else in this file posts from). */
function postFromFreshNetwork(headers: Record<string, string> = {}): Promise<PostAnswer> {
  const n = networkSeq++;
  return post(`${server.url}/keys/requests`, requestBody({ email: `bulkhead-${n}@example.com` }), {
    localAddress: `127.180.${n}.1`,
    headers,
  });
}

describe("the public pages' bulkhead", { timeout: 60_000 }, () => {
  it("keeps posts waiting on the key requests' lock off the API's connections", async () => {
    const lock = await holdKeyRequestLock();
    // More posts than the API's pool holds (DATABASE_POOL_SIZE): each would hold one while it waits.
    const posts = Array.from({ length: config.DATABASE_POOL_SIZE + 4 }, () => postFromFreshNetwork());
    let calls: { status: number; ms: number }[] = [];
    let waiting: number;
    try {
      await until(async () => (await waitingOnLocks()) >= config.PUBLIC_PAGES_DATABASE_CONNECTIONS, 10_000);
      for (let i = 0; i < 10; i++) {
        const started = performance.now();
        const answer = await fetch(`${server.url}/v1/quotes-filter?category=grief&limit=5`, {
          headers: { 'X-API-Key': apiKey },
        });
        await answer.arrayBuffer();
        calls.push({ status: answer.status, ms: performance.now() - started });
      }
      waiting = await waitingOnLocks();
    } finally {
      await lock.release();
    }
    const answers = await Promise.all(posts);
    calls = calls.map((call) => ({ ...call, ms: Math.round(call.ms) }));
    // Every call answered, none waiting out the pool's acquire deadline.
    expect(calls.map((call) => call.status)).toEqual(Array(10).fill(200));
    expect(Math.max(...calls.map((call) => call.ms))).toBeLessThan(config.DATABASE_ACQUIRE_TIMEOUT_MS);
    // Only the public pages' own connections waited on the lock.
    expect(waiting).toBe(config.PUBLIC_PAGES_DATABASE_CONNECTIONS);
    expect(answers.map((answer) => answer.status)).toEqual(Array(posts.length).fill(202));
  });

  it('refuses a post past the full queue unworked, with Retry-After and in words', async () => {
    const lock = await holdKeyRequestLock();
    const room = config.PUBLIC_PAGES_AT_ONCE + config.PUBLIC_PAGES_QUEUED;
    const answered: PostAnswer[] = [];
    // Half as a script posts (problem details), half as a browser (a page).
    const posts = Array.from({ length: room + 2 }, (_, i) =>
      postFromFreshNetwork(i % 2 === 0 ? {} : { Accept: 'text/html' }).then((answer) => {
        answered.push(answer);
        return answer;
      }),
    );
    try {
      // The two past the room are answered while the lock still holds every other.
      await until(async () => answered.length >= 2, 10_000);
    } finally {
      await lock.release();
    }
    const answers = await Promise.all(posts);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(room);
    expect(statuses.filter((status) => status === 503)).toHaveLength(2);
    for (const refused of answers.filter((answer) => answer.status === 503)) {
      expect(refused.headers['retry-after']).toBe(String(busyRetryAfterSeconds));
      const words = `The key and account pages are busy: ${config.PUBLIC_PAGES_QUEUED} requests are waiting already. Nothing was recorded; try again in ${busyRetryAfterSeconds} seconds.`;
      if (String(refused.headers['content-type']).startsWith('text/html')) expect(refused.text).toContain(words);
      else
        expect(JSON.parse(refused.text)).toMatchObject({
          type: 'urn:quotes:problem:service-unavailable',
          status: 503,
          detail: words,
        });
    }
  });
});
