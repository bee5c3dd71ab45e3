import { rules } from '@quotes/contract';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { systemClock } from '@quotes/accounts';
import { createKeyRequestService, type KeyRequestService } from '@quotes/accounts';
import { silentLogger } from '@quotes/service-base';
import { createMailer, type Mailer } from '@quotes/accounts';
import { createOperatorApi } from '@quotes/accounts';
import type { RunningServer } from '../../src/startServer.js';
import { post, startServerMailingTo, unpacedPublicPages } from '../../testing/keyRequestClient.js';
import { type SmtpInbox, startSmtpInbox } from '../../testing/smtpInbox.js';
import { confirmationTokens, pressConfirm } from './confirmationLinks.js';

// Random forms and JSON at the door and random presses of the confirmation page, on a real
// server, PostgreSQL and SMTP server behind a trusted "proxy" (127.90.0.0/16) that forwards
// whatever X-Forwarded-For it is given. Properties: never a 5xx; every request the door accepts
// is confirmed by its mailed link and, when it waits, approved by the operator's own API (the
// one the CLI builds): nothing accepted is refused later, nothing is left that can be neither
// confirmed nor refused. 120 runs of the door and 60 of the confirmation page take about 25 s on
// a loaded 2-core machine.
let database: TestDatabase;
let inbox: SmtpInbox;
let server: RunningServer;
let mailer: Mailer;
let operatorSide: KeyRequestService;

const bounds = {
  perAddressPerHour: 10_000,
  perNetworkPerHour: 10_000,
  perEmailPerHour: 10_000,
  perHour: 10_000,
  maxOpen: 100_000,
  unprovenMailsPerHour: 100_000,
};

beforeAll(async () => {
  [database, inbox] = await Promise.all([createTestDatabase(), startSmtpInbox()]);
  // The public pages' pace lifted (unpacedPublicPages): the properties are about the answers.
  server = await startServerMailingTo(
    database,
    inbox,
    { keyRequests: { trustProxy: ['127.90.0.0/16'], bounds } },
    unpacedPublicPages,
  );
  mailer = createMailer({ smtpUrl: inbox.url, from: 'Keys <keys@quotes.example.test>', outboxDir: '/nonexistent' });
  operatorSide = createKeyRequestService(
    database,
    createOperatorApi(database),
    { mailer, publicBaseUrl: server.url, bounds },
    systemClock,
    silentLogger,
  );
});
afterAll(async () => {
  mailer?.close();
  await server?.close();
  await inbox?.close();
  await database?.drop();
});

/** The characters that have broken a later step before, mixed into otherwise ordinary text. */
const trickyPiece = fc.constantFrom(
  '\u202E',
  '\u2066',
  '\u200F',
  '\u061C',
  '\u2028',
  '\u2029',
  '\u200B',
  '\u00AD',
  '\uFEFF',
  '\u200D',
  '\u200C',
  '\u0000',
  '\u001b[31m',
  '\u0085',
  '\u009b',
  '\u007f',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '\ud800',
  '\udfff',
  '\u{E0041}',
  '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
  '👩‍💻',
  'é',
  ' ',
  '<b>',
  '"',
  '&',
  '%',
);
const pieces = fc.array(
  fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 8 }), trickyPiece),
  {
    maxLength: 6,
  },
);
/**
 * Text a person types most of the time; otherwise any Unicode with the tricky pieces, or
 * ordinary text at one of the bounds (199 to 201, 999 to 1001 characters, or 16 KB) with a piece.
 */
const text = fc.oneof(
  { weight: 14, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }) },
  { weight: 3, arbitrary: pieces.map((parts) => parts.join('')) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(0, 1, 198, 199, 200, 201, 998, 999, 1000, 1001, 16_500),
        fc.constantFrom('a', '😀', 'é'),
        pieces,
      )
      .map(([length, unit, parts]) => `${unit.repeat(length)}${parts.join('').slice(0, 2)}`),
  },
);

let serial = 0;
/** Mostly addresses mail can reach (unique per run, so their mail is found), sometimes anything. */
const email = fc.oneof(
  { weight: 10, arbitrary: fc.constant(null).map(() => `p${++serial}-${Date.now().toString(36)}@example.com`) },
  { weight: 2, arbitrary: fc.emailAddress().map((address) => `q${++serial}x${address}`) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('spam@mailinator.com', ' Ann+tag@Example.COM ')
      .map((address) => address.replace('@', `${++serial}@`)),
  },
  { weight: 1, arbitrary: text },
);
const plan = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('trial', 'trial', 'starter', 'enterprise', undefined) },
  fc.constantFrom('gold', '', ' trial', 'TRIAL'),
);
const accept = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom<unknown>(true, 'true', 'on') },
  fc.constantFrom<unknown>(false, 'yes', 1, null),
);
const honeypot = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  fc.constant(''),
  fc.string({ maxLength: 20 }),
);
/** Usually none; sometimes enough to pass the form's 20 fields. */
const extraFields = fc.oneof(
  { weight: 8, arbitrary: fc.constant({}) },
  fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 10 }), { maxKeys: 18 }),
);
const headerText = fc.string({ unit: 'grapheme-ascii', maxLength: 40 });
const forwardedFor = fc.oneof(
  fc.constant(undefined),
  fc.ipV4(),
  fc.ipV6(),
  fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 99_999 })).map(([ip, port]) => `${ip}:${port}`),
  fc.ipV6().map((ip) => `[${ip}]:443`),
  fc.constantFrom(
    'not-an-ip',
    'unknown',
    ',,',
    '198.51.100.11:5555',
    'fe80::1%eth0',
    '::ffff:192.0.2.1',
    '127.1',
    '300.1.1.1',
  ),
  fc.array(fc.oneof(fc.ipV4(), headerText), { minLength: 1, maxLength: 4 }).map((list) => list.join(', ')),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/problem+json',
);

const submission = fc.record({
  fields: fc.record(
    { email, name: text, application: text, use: text, plan, accept_terms: accept, homepage: honeypot },
    { requiredKeys: ['email', 'name', 'application', 'use', 'accept_terms'] },
  ),
  missing: fc.oneof(
    { weight: 12, arbitrary: fc.constant(undefined) },
    fc.constantFrom('email', 'name', 'use', 'accept_terms'),
  ),
  extra: extraFields,
  repeated: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, fc.constantFrom('email', 'name', 'plan')),
  encoding: fc.constantFrom('json', 'json', 'json', 'form', 'form', 'form', 'other'),
  contentType,
  forwardedFor,
  accept: fc.constantFrom('application/json', 'text/html,*/*;q=0.8'),
  from: fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })),
});
type Submission = typeof submission extends fc.Arbitrary<infer T> ? T : never;

/** The body as the encoding writes it: JSON keeps types; a form writes strings, a repeated field twice. */
function encode(run: Submission): { body: string; type: string } {
  const fields = Object.fromEntries(
    Object.entries({ ...run.extra, ...run.fields }).filter(
      ([name, value]) => value !== undefined && name !== run.missing,
    ),
  );
  if (run.encoding === 'json') return { body: JSON.stringify(fields), type: 'application/json' };
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  if (run.repeated !== undefined && typeof fields[run.repeated] === 'string')
    form.append(run.repeated, String(fields[run.repeated]));
  if (run.encoding === 'form') return { body: form.toString(), type: 'application/x-www-form-urlencoded' };
  return {
    body: run.encoding === 'other' && run.contentType.includes('json') ? JSON.stringify(fields) : form.toString(),
    type: run.contentType,
  };
}

/** An accepted request goes all the way: link, page, confirmation, and the operator's approval if it waits. */
async function followThrough(address: string): Promise<void> {
  const rows = await database.db.selectFrom('key_requests').selectAll().where('email', '=', address).execute();
  expect(rows.length, `one request kept for ${JSON.stringify(address)}`).toBeGreaterThanOrEqual(1);
  const row = rows[rows.length - 1]!;
  if (row.token_hash === null) {
    // The hidden field was filled: never confirmable, and it expires like any unconfirmed request.
    expect(row.status).toBe('unconfirmed');
    return;
  }
  // The address may have asked more than once (an earlier request already confirmed): the token
  // is the one whose hash the newest request keeps, waited for as its mail arrives.
  const matches = (one: string) => createHash('sha256').update(one).digest().equals(row.token_hash!);
  let token: string | undefined;
  for (let count = 1; token === undefined; count++)
    token = (await confirmationTokens(inbox, (to) => to === address.toLowerCase(), count)).find(matches);
  const page = await fetch(`${server.url}/keys/confirm?token=${token}`);
  expect(page.status).toBe(200);
  const confirmed = await pressConfirm(server.url, token!);
  expect(confirmed.status, confirmed.text).toBe(200);
  const decided = await database.db
    .selectFrom('key_requests')
    .selectAll()
    .where('id', '=', row.id)
    .executeTakeFirstOrThrow();
  expect(['approved', 'pending'], `request ${row.id}: ${decided.rejection_reason}`).toContain(decided.status);
  if (decided.status === 'pending') {
    // A plan with per-key limits (enterprise) is approved with its allowance chosen, as the action requires.
    const perKey = rules.planById.get(decided.plan_id)?.perKeyLimits === true;
    const approved = await operatorSide.approve(row.id, { send: false, ...(perKey ? { unlimited: true } : {}) });
    expect(approved.request.status).toBe('approved');
  }
}

describe('the door and every later step agree', { timeout: 180_000 }, () => {
  it('never answers 5xx, and what it accepts is confirmed and approved', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(submission, async (run) => {
        const { body, type } = encode(run);
        const answer = await post(`${server.url}/keys/requests`, body, {
          contentType: type,
          localAddress: `127.90.${run.from[0]}.${run.from[1]}`,
          headers: {
            Accept: run.accept,
            ...(run.forwardedFor === undefined ? {} : { 'X-Forwarded-For': run.forwardedFor }),
          },
        });
        expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
        if (answer.status !== 202) return;
        accepted++;
        await followThrough(String(run.fields.email).trim());
      }),
      { numRuns: 120 },
    );
    // The generators are tuned so that a good share gets in: the later steps are exercised, not only refusals.
    expect(accepted).toBeGreaterThan(15);
  });

  it('never answers 5xx to a confirmation page opened or pressed with anything', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ unit: 'grapheme-ascii', maxLength: 70 })),
        contentType,
        fc.constantFrom('form', 'json', 'repeated'),
        async (token, type, shape) => {
          const page = await fetch(`${server.url}/keys/confirm?token=${encodeURIComponent(token)}`);
          expect(page.status).toBeLessThan(500);
          const body =
            shape === 'json'
              ? JSON.stringify({ token })
              : shape === 'repeated'
                ? `token=${encodeURIComponent(token)}&token=x`
                : `token=${encodeURIComponent(token)}`;
          const pressed = await post(`${server.url}/keys/confirm`, body, {
            contentType: type,
            localAddress: '127.91.0.1',
          });
          expect(pressed.status, pressed.text.slice(0, 300)).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
  });
});
