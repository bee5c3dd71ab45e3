import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import type { RunningServer } from '../../src/startServer.js';
import { post, requestBody, startServerMailingTo } from '../../testing/keyRequestClient.js';
import { challengeIn, signedChallenge, solvedPayload } from '../../testing/proofOfWorkSolver.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';

// Hostile `altcha` fields at both forms while the service is busy, over real HTTP, on a real
// PostgreSQL, mailing to a real SMTP server: whatever is sent, never a 5xx, nothing recorded,
// nothing mailed. Setting beyond testConfig, and why: PROOF_OF_WORK_FROM_PERCENT=0, busy from the
// first post (the default asks from a fifth of the hour's mail budget).

let database: TestDatabase;
let inbox: SmtpInbox;
let server: RunningServer;
/** A challenge the form handed out, and the same solved, then spent once (a replay). */
let handedOut: string;
let spent: string;
/** Signed with the service's own secret but expired a minute ago, and solved. */
let expired: string;

const base64 = (text: string) => Buffer.from(text).toString('base64');
const decoded = (payload: string) => JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  server = await startServerMailingTo(database, inbox, {}, { PROOF_OF_WORK_FROM_PERCENT: '0' });
  const form = await fetch(`${server.url}/keys/request`, { headers: { Accept: 'text/html' } });
  handedOut = challengeIn(await form.text())!;
  spent = await solvedPayload(handedOut);
  const first = await post(`${server.url}/keys/requests`, requestBody({ email: 'first@example.com', altcha: spent }));
  expect(first.status).toBe(202);
  await inbox.waitFor(1);
  expired = await solvedPayload(await signedChallenge(database, { expiresAt: new Date(Date.now() - 60_000) }));
}, 60_000);
afterAll(async () => {
  await server?.close();
  await inbox?.close();
  await database?.drop();
});

/** Payloads of the right outline with their parts changed: a forged signature, altered parameters, a wrong solution. */
const tampered = fc.oneof(
  fc.constant('spent'),
  fc.constant('expired'),
  fc.record({
    part: fc.constantFrom('signature', 'cost', 'keyPrefix', 'expiresAt', 'algorithm', 'derivedKey', 'counter'),
    value: fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.constant(null),
      fc.constant('0'.repeat(64)),
      fc.constant(Number.MAX_SAFE_INTEGER),
    ),
  }),
);

function tamper(choice: 'spent' | 'expired' | { part: string; value: unknown }): string {
  if (choice === 'spent') return spent;
  if (choice === 'expired') return expired;
  const payload = decoded(spent);
  if (choice.part === 'signature') payload.challenge.signature = choice.value;
  else if (choice.part === 'derivedKey' || choice.part === 'counter') payload.solution[choice.part] = choice.value;
  else payload.challenge.parameters[choice.part] = choice.value;
  return base64(JSON.stringify(payload));
}

const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  // Not base64 at all, or base64 of what is not JSON.
  fc.string({ minLength: 1 }).map((text) => `%%${text}==`),
  fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  // JSON of any shape, and of the payload's outline with anything inside.
  fc.json().map(base64),
  fc
    .record({
      challenge: fc.record({ parameters: fc.anything(), signature: fc.anything() }),
      solution: fc.anything(),
    })
    .map((payload) => base64(JSON.stringify(payload) ?? 'null')),
  tampered.map(tamper),
  // Huge: past the longest payload read, and past the form's whole size.
  fc.integer({ min: 4001, max: 40_000 }).map((length) => 'A'.repeat(length)),
);

let seq = 0;
const fromFreshNetwork = () => `127.192.${seq % 250}.${1 + (Math.floor(seq++ / 250) % 250)}`;

describe('hostile proofs of work', { timeout: 180_000 }, () => {
  it('never answer 5xx and record or mail nothing, at either form', async () => {
    const formToken = 'h'.repeat(43);
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(hostile, fc.constantFrom('json', 'form', 'sign-in'), async (altcha, how) => {
        const answer =
          how === 'json'
            ? await post(`${server.url}/keys/requests`, requestBody({ email: 'hostile@example.com', altcha }), {
                localAddress: fromFreshNetwork(),
              })
            : how === 'form'
              ? await post(
                  `${server.url}/keys/requests`,
                  new URLSearchParams({
                    email: 'hostile@example.com',
                    name: 'Ann Lee',
                    application: 'Quote widget',
                    use: 'A quote of the day.',
                    accept_terms: 'true',
                    altcha,
                  }).toString(),
                  {
                    contentType: 'application/x-www-form-urlencoded',
                    localAddress: fromFreshNetwork(),
                    headers: { Accept: 'text/html' },
                  },
                )
              : await post(
                  `${server.url}/account/sign-in-link`,
                  new URLSearchParams({ _csrf: formToken, email: 'hostile@example.com', altcha }).toString(),
                  {
                    contentType: 'application/x-www-form-urlencoded',
                    localAddress: fromFreshNetwork(),
                    headers: { Cookie: `quotes_account_form=${formToken}`, Accept: 'text/html' },
                  },
                );
        statuses.add(answer.status);
        // Refused for the proof (429), for a field the schema refuses (400), or for its size (413).
        expect([400, 413, 429]).toContain(answer.status);
      }),
      { numRuns: 150 },
    );
    expect(statuses.has(429)).toBe(true);
    const recorded = await database.db
      .selectFrom('key_requests')
      .select('email')
      .where('email', '=', 'hostile@example.com')
      .execute();
    const links = await database.db
      .selectFrom('account_sign_ins')
      .select('email')
      .where('email', '=', 'hostile@example.com')
      .execute();
    expect(recorded).toEqual([]);
    expect(links).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(inbox.messages.map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Confirm your request/)]);
  });
});
