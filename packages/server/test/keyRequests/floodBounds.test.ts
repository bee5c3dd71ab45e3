import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import {
  type PostAnswer,
  post,
  requestBody,
  startServerMailingTo,
  unpacedPublicPages,
} from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { manualClock } from '../../testing/testServer.js';
import { recipientsOf } from './confirmationLinks.js';

// A flood of key requests from 1, 10 and 50 networks (/24s, four addresses each, twelve posts
// per network, sent together) and one post from each of 250 networks, with the default bounds,
// then two honest visitors, each from a network of their own: what the flood leaves open to
// them. The figures go to test-output/key-request-flood.json.
let database: TestDatabase;
let inbox: SmtpInbox;
let server: RunningServer;
const clock = manualClock('2026-11-26T09:00:00Z');
const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url));

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  // No bounds given: the configuration's defaults. Settings beyond testConfig, and why: the public
  // pages' pace lifted (unpacedPublicPages), since the outcomes are the hourly bounds', counted on
  // the manual clock, and the pace would only spread the 982 posts over 98 s;
  // PROOF_OF_WORK_FROM_PERCENT=100, what the bounds alone leave open, without the proof of work the
  // flood makes the forms ask for (proofOfWork.test.ts).
  server = await startServerMailingTo(
    database,
    inbox,
    { clock: clock.clock },
    { ...unpacedPublicPages, PROOF_OF_WORK_FROM_PERCENT: '100' },
  );
});
afterAll(async () => {
  await server?.close();
  await inbox?.close();
  await database?.drop();
});

const addressesPerNetwork = 4;
const postsPerAddress = 3;

/** Sends every post with at most `width` in flight, in the order given. */
async function sendAll(posts: (() => Promise<PostAnswer>)[], width: number): Promise<PostAnswer[]> {
  const answers: PostAnswer[] = new Array(posts.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < posts.length) {
        const index = next++;
        answers[index] = await posts[index]!();
      }
    }),
  );
  return answers;
}

const refusalOf = (answer: PostAnswer) =>
  answer.status === 202
    ? 'admitted'
    : (/requests (from this network while the service is busy|from this \w+|for this e-mail)/.exec(answer.text)?.[1] ??
      String(answer.status));

interface FloodFigures {
  networks: number;
  posts: number;
  outcomes: Record<string, number>;
  /** Confirmation mails the flood made the service send. */
  mailed: number;
  honestVisitor: number;
  secondHonestVisitor: number;
  floodSeconds: number;
}

describe('a flood of key requests from many networks', { timeout: 300_000 }, () => {
  const figures: FloodFigures[] = [];

  afterAll(() => {
    mkdirSync(outputDir, { recursive: true });
    writeFileSync(`${outputDir}key-request-flood.json`, `${JSON.stringify(figures, null, 2)}\n`);
    console.log(
      figures
        .map(
          (row) =>
            `${row.networks} networks, ${row.posts} posts in ${row.floodSeconds} s: ${JSON.stringify(row.outcomes)}, ${row.mailed} mailed; honest visitor ${row.honestVisitor}, another ${row.secondHonestVisitor}`,
        )
        .join('\n'),
    );
  });

  // [networks, addresses per network, posts per address]; the last, one post from each of many
  // networks, is the flood the per-network bound cannot see: it shows what the busy rule lets through.
  it.for<[number, number, number]>([
    [1, addressesPerNetwork, postsPerAddress],
    [10, addressesPerNetwork, postsPerAddress],
    [50, addressesPerNetwork, postsPerAddress],
    [250, 1, 1],
  ])(
    'from %i networks (%i addresses, %i posts each) leaves an honest visitor from another network their request',
    async ([networks, addresses, rounds]) => {
      // An hour of its own for each flood.
      clock.advance(2 * 3_600_000);
      const scenario = figures.length;
      const posts: (() => Promise<PostAnswer>)[] = [];
      // Round-robin over networks and addresses, as a coordinated flood arrives.
      for (let round = 0; round < rounds; round++)
        for (let address = 1; address <= addresses; address++)
          for (let network = 0; network < networks; network++) {
            const from = `127.${160 + scenario}.${network}.${address}`;
            const email = `flood${scenario}-${network}-${address}-${round}@example.com`;
            posts.push(() => post(`${server.url}/keys/requests`, requestBody({ email }), { localAddress: from }));
          }
      const started = performance.now();
      const answers = await sendAll(posts, 16);
      const floodSeconds = Math.round((performance.now() - started) / 100) / 10;
      // Every answer an admission or a refusal; any other is shown with its words.
      expect(
        answers
          .filter((answer) => answer.status !== 202 && answer.status !== 429)
          .map((answer) => `${answer.status} ${answer.text.slice(0, 200)}`),
      ).toEqual([]);
      const outcomes: Record<string, number> = {};
      for (const answer of answers) outcomes[refusalOf(answer)] = (outcomes[refusalOf(answer)] ?? 0) + 1;

      const honest = await post(
        `${server.url}/keys/requests`,
        requestBody({ email: `honest${scenario}@example.com` }),
        {
          localAddress: `127.200.${scenario}.1`,
        },
      );
      const another = await post(
        `${server.url}/keys/requests`,
        requestBody({ email: `honest${scenario}b@example.com` }),
        {
          localAddress: `127.201.${scenario}.1`,
        },
      );
      const mailedNow = () =>
        inbox.messages.filter((mail) => recipientsOf(mail).some((to) => to.startsWith(`flood${scenario}-`))).length;
      // Mail goes out after each answer: wait for the admitted ones' to arrive (10 s at most).
      for (const deadline = Date.now() + 10_000; mailedNow() < (outcomes.admitted ?? 0) && Date.now() < deadline; )
        await new Promise((resolve) => setTimeout(resolve, 100));
      const mailed = mailedNow();
      figures.push({
        networks,
        posts: posts.length,
        outcomes,
        mailed,
        honestVisitor: honest.status,
        secondHonestVisitor: another.status,
        floodSeconds,
      });
      expect(honest.status, honest.text).toBe(202);
      expect(another.status, another.text).toBe(202);
      // No network got past its own bound (10 an hour); each admitted request was mailed once.
      expect(outcomes.admitted).toBeLessThanOrEqual(networks * 10);
      expect(mailed).toBe(outcomes.admitted);
    },
  );
});
