import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { createMailer } from '@quotes/accounts';
import type { Logger } from '@quotes/service-base';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { loadFixtureCorpus } from '../../testing/fixtureCorpus.js';
import type { SmtpInbox } from '../../testing/smtpInbox.js';
import type { ManualClock } from '../../testing/testServer.js';
import { type RunningServer, startServer } from '../../src/startServer.js';
import { testConfig } from '../../testing/testConfig.js';

export const operatorEmail = 'operator@quotes.example';
export const publicBaseUrl = 'https://quotes.example';

/** A server on `database` whose holder mail goes through SMTP at `smtpUrl`, swept only when the test says. */
export function mailingServer(
  database: TestDatabase,
  clock: ManualClock,
  smtpUrl: string,
  logger?: Logger,
  deadlineMs = 5000,
  sweepMs = 0,
): Promise<RunningServer> {
  return startServer({
    config: testConfig(),
    database,
    logger,
    clock: clock.clock,
    shutdownGraceMs: 2000,
    holderMailSweepMs: sweepMs,
    keyRequests: {
      mailer: createMailer({
        smtpUrl,
        from: 'Quote Retrieval Service <keys@quotes.example>',
        outboxDir: join(tmpdir(), 'holder-mail-test-outbox'),
        deadlineMs,
      }),
      publicBaseUrl,
      operatorEmail,
    },
  });
}

export async function holderMailDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  await loadFixtureCorpus(database);
  return database;
}

/** `count` calls with `key`, alternating between the servers; their statuses. */
export async function callsWith(key: string, count: number, servers: readonly RunningServer[]): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const server = servers[i % servers.length]!;
    const response = await fetch(`${server.url}/v1/quotes-random`, { headers: { 'X-API-Key': key } });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  await Promise.all(servers.map((server) => server.flushCounts()));
  return statuses;
}

/** Every server sweeps, twice each, all at once. */
export async function raceSweeps(servers: readonly RunningServer[]): Promise<void> {
  await Promise.all([...servers, ...servers].map((server) => server.sweepHolderMail()));
}

/** The messages to `address` so far, after a pause long enough for one more to arrive. */
export async function mailsTo(inbox: SmtpInbox, address: string): Promise<ParsedMail[]> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return inbox.messages.filter((mail) => {
    const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
    return to.some((entry) => entry.value.some((value) => value.address === address));
  });
}
