import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/startServer.js';
import { AccountClient } from '../../testing/accountClient.js';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import { startServerMailingTo } from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { manualClock } from '../../testing/testServer.js';

const dayMs = 86_400_000;
const time = manualClock('2026-08-01T12:00:00Z');

// The refused calls of a key page are counted over the longest window its charts show, and the
// heading names that window: a key younger than 30 days has no 90-day view.
describe("the refusals heading of a holder's key page", { timeout: 90_000 }, () => {
  let database: TestDatabase;
  let inbox: SmtpInbox;
  let server: RunningServer;
  let client: AccountClient;
  let older: { id: string; key: string };
  let younger: { id: string; key: string };

  beforeAll(async () => {
    [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
    await loadFixtureCorpus(database);
    server = await startServerMailingTo(database, inbox, { clock: time.clock });
    const email = 'windows@example.com';
    older = await server.operator.createKey({ client: 'Older app', plan: 'starter', email });
    time.advance(108 * dayMs); // 2026-11-17T12:00:00Z
    younger = await server.operator.createKey({ client: 'Younger app', plan: 'starter', email });
    time.advance(10 * dayMs); // 2026-11-27T12:00:00Z
    // Three filters on starter, which allows two: a refused call (403 plan-limit) of each key.
    for (const key of [older.key, younger.key]) {
      const answer = await fetch(`${server.url}/v1/quotes-random?category=love&mood=dark&era=Modern`, {
        headers: { 'X-API-Key': key },
      });
      expect(answer.status).toBe(403);
    }
    await server.flushCounts();
    await server.flushUsageHistory();
    client = new AccountClient(server.url);
    await client.signIn(inbox, email);
  });

  afterAll(async () => {
    await server?.close();
    await inbox?.close();
    await database?.drop();
  });

  const headingsOf = async (id: string) => {
    const page = await client.get(`/account/keys/${id}`);
    expect(page.status).toBe(200);
    return [...page.text.matchAll(/<h2>([^<]*)<\/h2>/g)].map((match) => match[1]);
  };

  it('names the days since issue for a key younger than 30 days', async () => {
    const headings = await headingsOf(younger.id);
    expect(headings).toContain('Refused calls since 2026-11-17 (UTC)');
    expect(headings.join('\n')).not.toContain('90 days');
  });

  it('names the last 90 days for a key older than 90 days', async () => {
    const headings = await headingsOf(older.id);
    expect(headings).toContain('Refused calls, last 90 days (UTC)');
  });

  it('counts the refusals of that window', async () => {
    const page = await client.get(`/account/keys/${younger.id}`);
    const table = /<table class="refusals">[\s\S]*?<\/table>/.exec(page.text)?.[0] ?? '';
    expect([...table.matchAll(/<td>([\d,]+)<\/td>/g)].map((match) => match[1])).toEqual(['1']);
  });
});
