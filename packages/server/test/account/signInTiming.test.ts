import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { post, startServerMailingTo } from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';

// Whether an address holds keys, guessed from the time of the request that follows its sign-in
// post, over real HTTP, PostgreSQL and SMTP: the sign-in's lookup and mail must not run where
// the next request waits for them. 300 tries, holders and strangers in a shuffled order; the
// guess is "a holder" when the next request took longer than the median. Bounds raised (named in
// the server's options) so that 600 posts in a few seconds meet none of them.
const tries = 300;

let database: TestDatabase;
let inbox: SmtpInbox;
let server: RunningServer | undefined;
/** The holders' keys are made once, by the first try's server. */
let holdersMade = false;
const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await inbox?.close();
  await database?.drop();
});

/**
 * A server of its own for each try of the test (the timed project tries a failed test once
 * more): the test closes it to have every link mailed, so a second try could not reuse it.
 */
async function startFreshServer(): Promise<void> {
  await server?.close();
  server = await startServerMailingTo(
    database,
    inbox,
    {
      keyRequests: {
        bounds: {
          perAddressPerHour: 10_000,
          perNetworkPerHour: 10_000,
          perEmailPerHour: 10_000,
          perHour: 100_000,
          maxOpen: 1000,
          unprovenMailsPerHour: 100_000,
        },
      },
    },
    // The public pages' pace (10 requests started a second by default, publicBulkhead.test.ts's
    // bound) held each post up to 1 s for its turn: 620 posts took a minute, and the next request's
    // time was mostly its wait for the pace, not the sign-in's work this test looks for.
    { PUBLIC_PAGES_PER_SECOND: '10000' },
  );
  if (holdersMade) return;
  for (let holder = 0; holder < 10; holder++)
    await server.operator.createKey({
      client: `Holder app ${holder}`,
      email: `holder-${holder}@example.com`,
      plan: 'enterprise',
      unlimited: true,
      allowAnotherTrial: true,
    });
  holdersMade = true;
}

const formToken = 't'.repeat(43);
const signInLink = (email: string) =>
  post(`${server!.url}/account/sign-in-link`, new URLSearchParams({ _csrf: formToken, email }).toString(), {
    contentType: 'application/x-www-form-urlencoded',
    headers: { Cookie: `quotes_account_form=${formToken}`, Accept: 'text/html' },
  });

/** A fixed shuffle (half holders), so every run asks the same questions. */
function shuffledKinds(): boolean[] {
  const kinds = Array.from({ length: tries }, (_, i) => i % 2 === 0);
  let seed = 20261129;
  for (let i = kinds.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = Math.floor((seed / 2 ** 31) * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  return kinds;
}

describe("a sign-in's mail work", { timeout: 180_000 }, () => {
  it("tells nothing through the next request's time", async () => {
    await startFreshServer();
    const mailedBefore = inbox.messages.length;
    const kinds = shuffledKinds();
    const nextMs: number[] = [];
    // Warm: the first posts pay for connections and plans.
    for (let i = 0; i < 20; i++) await signInLink(`warm-${i}@example.com`);
    for (let i = 0; i < tries; i++) {
      const asked = await signInLink(kinds[i] ? `holder-${i % 10}@example.com` : `nobody-${i}@example.com`);
      expect(asked.status).toBe(202);
      const started = performance.now();
      const next = await signInLink(`probe-${i}@example.com`);
      nextMs.push(performance.now() - started);
      expect(next.status).toBe(202);
    }
    const median = [...nextMs].sort((a, b) => a - b)[Math.floor(tries / 2)]!;
    const right = nextMs.filter((ms, i) => ms > median === kinds[i]).length;
    const holders = kinds.filter(Boolean).length;
    const mean = (holder: boolean) =>
      nextMs.filter((_, i) => kinds[i] === holder).reduce((sum, ms) => sum + ms, 0) /
      (holder ? holders : tries - holders);
    const figures = {
      tries,
      rightGuesses: right,
      share: right / tries,
      nextMeanMsAfterHolder: Math.round(mean(true) * 100) / 100,
      nextMeanMsAfterStranger: Math.round(mean(false) * 100) / 100,
    };
    console.log(JSON.stringify(figures));
    mkdirSync(outputDir, { recursive: true });
    writeFileSync(`${outputDir}sign-in-timing.json`, `${JSON.stringify(figures, null, 2)}\n`);
    // Every holder was mailed (the links are sent, only later), and no stranger.
    await server!.close();
    expect(inbox.messages.slice(mailedBefore).filter((mail) => /sign/i.test(mail.subject ?? ''))).toHaveLength(holders);
    expect(right / tries).toBeLessThanOrEqual(0.55);
  });
});
