import type { TestDatabase } from '@quotes/database/testing';
import {
  createKeyRequestService,
  createMailer,
  createOperatorApi,
  holderActionBounds,
  holderActorOf,
} from '@quotes/accounts';
import { silentLogger } from '@quotes/service-base';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/startServer.js';
import { type HolderTestServer, startHolderServer } from '../../testing/holderServer.js';
import type { SmtpInbox } from '../../testing/smtpInbox.js';
import { manualClock } from '../../testing/testServer.js';

// 40 minutes before the hour ends: the hourly bounds free their places at 11:00 UTC.
const time = manualClock('2026-11-27T10:20:00Z');

/** The alert beside the form that was refused, as the holder reads it. */
const alertOf = (page: string) =>
  /<p class="errors" role="alert">([^<]*)<\/p>/.exec(page)?.[1]?.replaceAll('&#39;', "'").replaceAll('&amp;', '&');

// A holder's changes to their keys over real HTTP and a real database: each kind bounded per key
// and per holder, the bound decided in PostgreSQL when the forms arrive at once, a closed key
// refusing every change, and the audit holding one entry per change that was made.
describe("the bounds of a holder's changes", { timeout: 120_000 }, () => {
  let holders: HolderTestServer;
  let database: TestDatabase;
  let inbox: SmtpInbox;
  let server: RunningServer;

  beforeAll(async () => {
    holders = await startHolderServer({
      clock: time.clock,
      // The bounds here must hold for changes arriving at once; the public pages' bulkhead (its
      // own test's) would turn most of a burst away before any bound is met.
      env: { PUBLIC_PAGES_AT_ONCE: '16', PUBLIC_PAGES_QUEUED: '1000' },
    });
    ({ database, inbox, server } = holders);
  });

  afterAll(() => holders?.close());

  const holder = (email: string, keys = 1, plan = 'starter') => holders.holder(email, { keys, plan });

  const auditActions = async (keyId: string) =>
    (await server.operator.auditTrail({ keyId, limit: 100_000 })).map((entry) => entry.action);
  const countOf = (actions: readonly string[], action: string) => actions.filter((one) => one === action).length;
  const placesOf = (scope: string) =>
    database.db
      .selectFrom('holder_action_windows')
      .select(['action', 'window_seconds', 'actions'])
      .where('scope', '=', scope)
      .orderBy('action')
      .orderBy('window_seconds')
      .execute();

  it('rolls a key 5 times in an hour, then answers 429 in words with Retry-After until the hour is over', async () => {
    const { key, client, csrf } = await holder('roll-burst@example.com');
    const statuses: number[] = [];
    let refused = { status: 0, headers: new Headers(), text: '' };
    for (let index = 0; index < 7; index++) {
      const answer = await client.post(`/account/keys/${key.id}/roll`, { _csrf: csrf, grace: 'at-once' });
      statuses.push(answer.status);
      if (answer.status === 429) refused = answer;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(refused.headers.get('retry-after')).toBe('2400');
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(alertOf(refused.text)).toBe(
      'Too many rolls of this key: at most 5 an hour. Try again after 11:00 UTC (in 40 minutes).',
    );
    expect(countOf(await auditActions(key.id), 'keys roll')).toBe(5);

    // At 11:00 the hour's places are free again (the page visited at 10:40 keeps the session alive).
    time.advance(20 * 60_000);
    expect((await client.get(`/account/keys/${key.id}`)).status).toBe(200);
    time.advance(20 * 60_000);
    expect((await client.post(`/account/keys/${key.id}/roll`, { _csrf: csrf, grace: 'at-once' })).status).toBe(200);
    time.set('2026-11-27T10:20:00Z');
  });

  it('takes 200 rolls sent at once as 5 rolls and 195 refusals: 5 audit entries, 5 places', async () => {
    const { key, client, csrf } = await holder('roll-flood@example.com');
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => client.post(`/account/keys/${key.id}/roll`, { _csrf: csrf, grace: 'at-once' })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(countOf(statuses.map(String), '200')).toBe(5);
    expect(countOf(statuses.map(String), '429')).toBe(195);
    const actions = await auditActions(key.id);
    expect(actions).toEqual(['keys create', 'keys roll', 'keys roll', 'keys roll', 'keys roll', 'keys roll']);
    expect(await placesOf(`key:${key.id}`)).toEqual([
      { action: 'roll', window_seconds: 3600, actions: 5 },
      { action: 'roll', window_seconds: 86_400, actions: 5 },
    ]);
    // The key works with the last secret shown, and only with it.
    const secrets = answers
      .map((answer) => /<p class="secret" id="new-key">(qk_[A-Za-z0-9]+)<\/p>/.exec(answer.text)?.[1])
      .filter((secret) => secret !== undefined);
    expect(secrets).toHaveLength(5);
    const working = [];
    for (const secret of secrets)
      if ((await fetch(`${server.url}/v1/quotes-random`, { headers: { 'X-API-Key': secret } })).status === 200)
        working.push(secret);
    expect(working).toHaveLength(1);
  });

  it('bounds origin saves per key and per holder when four keys are saved at once: 10 a key, 30 in all', async () => {
    const { keys, client, csrf } = await holder('origins-flood@example.com', 4);
    const long = Array.from({ length: 50 }, (_, index) => `https://${'o'.repeat(60)}${index}.example`).join('\n');
    const answers = await Promise.all(
      keys.flatMap((key) =>
        Array.from({ length: 12 }, () =>
          client.post(`/account/keys/${key.id}/origins`, { _csrf: csrf, origins: long }),
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 303)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(18);
    const saved = [];
    for (const key of keys) {
      const count = countOf(await auditActions(key.id), 'keys set-origins');
      expect(count).toBeLessThanOrEqual(10);
      saved.push(count);
      // A key whose saves all met the holder's bound first took no place: no row.
      expect((await placesOf(`key:${key.id}`)).find((row) => row.window_seconds === 3600)?.actions ?? 0).toBe(count);
    }
    expect(saved.reduce((sum, count) => sum + count, 0)).toBe(30);
    expect(await placesOf(holderActorOf('origins-flood@example.com'))).toEqual([
      { action: 'origins', window_seconds: 3600, actions: 30 },
    ]);
    const refusal = answers.find((answer) => answer.status === 429)!;
    expect(alertOf(refusal.text)).toMatch(
      /^Too many saves of the allowed origins of (this key: at most 10|your keys: at most 30) an hour\. Try again after 11:00 UTC \(in 40 minutes\)\.$/,
    );
  });

  it('bounds the allowance mails switch: 6 changes an hour, refused in words after them', async () => {
    const { key, client, csrf } = await holder('toggle-burst@example.com');
    const statuses: number[] = [];
    let last = '';
    for (let index = 0; index < 10; index++) {
      const answer = await client.post(`/account/keys/${key.id}/alerts`, {
        _csrf: csrf,
        mails: index % 2 === 0 ? 'off' : 'on',
      });
      statuses.push(answer.status);
      last = answer.text;
    }
    expect(statuses).toEqual([303, 303, 303, 303, 303, 303, 429, 429, 429, 429]);
    expect(alertOf(last)).toBe(
      'Too many changes to the allowance mails of this key: at most 6 an hour. Try again after 11:00 UTC (in 40 minutes).',
    );
    expect(countOf(await auditActions(key.id), 'keys allowance-mails')).toBe(6);
  });

  it('bounds the requests about a key to 3 a day, each decided before the next', async () => {
    const { key, client, csrf } = await holder('asks@example.com');
    const service = createKeyRequestService(
      database,
      createOperatorApi(database, { clock: time.clock }),
      {
        mailer: createMailer({
          smtpUrl: inbox.url,
          from: 'Keys <keys@quotes.example.test>',
          outboxDir: '/nonexistent',
        }),
        publicBaseUrl: server.url,
        bounds: {
          perAddressPerHour: 100,
          perNetworkPerHour: 100,
          perEmailPerHour: 100,
          perHour: 1000,
          maxOpen: 1000,
          unprovenMailsPerHour: 10_000,
        },
      },
      time.clock,
      silentLogger,
    );
    const ask = () =>
      client.post(`/account/keys/${key.id}/requests`, {
        _csrf: csrf,
        kind: 'plan-change',
        plan: 'professional',
        reason: 'More calls.',
      });
    for (let index = 0; index < 3; index++) {
      expect((await ask()).status).toBe(303);
      // A second request while one waits is refused as before, and takes no place (else the third would be refused).
      if (index === 0) expect((await ask()).status).toBe(409);
      const waiting = (await service.list('pending')).find((request) => request.forKeyId === key.id)!;
      await service.reject(waiting.id, { category: 'other', reason: 'Not this month.' });
    }
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(13 * 3600 + 40 * 60));
    expect(alertOf(refused.text)).toBe(
      'Too many requests of this key: at most 3 a day. Try again after 2026-11-28 00:00 UTC (in 14 hours).',
    );
    expect(countOf(await auditActions(key.id), 'requests plan-change')).toBe(3);
  });

  it('refuses every change to a closed key in words, and still shows it', async () => {
    const { key, client, csrf } = await holder('closed@example.com');
    expect((await client.post(`/account/keys/${key.id}/close`, { _csrf: csrf, confirm: 'yes' })).status).toBe(303);
    const before = await auditActions(key.id);
    const attempts = {
      roll: { grace: 'at-once' },
      origins: { origins: 'https://app.example' },
      alerts: { mails: 'off' },
      requests: { kind: 'plan-change', plan: 'professional', reason: 'Please.' },
      close: { confirm: 'yes' },
    };
    for (const [form, fields] of Object.entries(attempts)) {
      const answer = await client.post(`/account/keys/${key.id}/${form}`, { _csrf: csrf, ...fields });
      expect([form, answer.status]).toEqual([form, 409]);
      expect(alertOf(answer.text)).toBe(
        `The key ${key.prefix}… is closed: it can still be viewed, but not rolled, changed or asked about. Ask for a new key instead.`,
      );
    }
    // Many at once, as the flood of switches on a closed key was: not one gets through.
    const flood = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        client.post(`/account/keys/${key.id}/alerts`, { _csrf: csrf, mails: index % 2 === 0 ? 'off' : 'on' }),
      ),
    );
    expect(new Set(flood.map((answer) => answer.status))).toEqual(new Set([409]));
    expect(await auditActions(key.id)).toEqual(before);
    expect(await placesOf(`key:${key.id}`)).toEqual([]);
    const shown = await client.get(`/account/keys/${key.id}`);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('This key is closed');
    expect((await server.operator.showKey(key.id)).allowedOrigins).toEqual([]);
  });

  it('answers hostile forms sent in bursts without a 5xx, and keeps exactly one place per change made', async () => {
    time.set('2026-11-27T13:05:00Z');
    const { key, client, csrf } = await holder('hostile@example.com', 1, 'trial');
    const hostile = fc.oneof(
      fc.string({ maxLength: 100 }),
      fc.string({ unit: 'binary', maxLength: 100 }),
      fc.constantFrom('', ' ', '\u0000', '\u202e', '<script>', '%ZZ', 'https://x.example'),
    );
    const fields = fc.record(
      {
        grace: fc.oneof(fc.constantFrom('at-once', '1-hour', '24-hours'), hostile),
        origins: fc.oneof(
          fc
            .array(fc.constantFrom('https://a.example', 'http://localhost:*', 'ftp://no', 'https://b.example:8443'), {
              maxLength: 60,
            })
            .map((origins) => origins.join('\n')),
          hostile,
        ),
        mails: fc.oneof(fc.constantFrom('on', 'off'), hostile),
        kind: fc.oneof(fc.constantFrom('plan-change', 'renewal'), hostile),
        plan: fc.oneof(fc.constantFrom('starter', 'professional', 'trial'), hostile),
        reason: hostile,
        x: hostile,
      },
      { requiredKeys: [] },
    );
    const form = fc.record({
      path: fc.constantFrom('roll', 'origins', 'alerts', 'requests', 'close'),
      // Origins over the 20,000 characters the rule allows, alone: the whole form stays under the
      // 24 KB the pages read (what is over it is the body parser's refusal, not these rules).
      fields: fc.oneof(
        { arbitrary: fields, weight: 9 },
        { arbitrary: fc.constant({ origins: 'a'.repeat(20_001) }), weight: 1 },
      ),
      withCsrf: fc.boolean(),
    });
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.array(form, { minLength: 1, maxLength: 4 }), async (burst) => {
        const answers = await Promise.all(
          burst.map(({ path, fields, withCsrf }) =>
            // Never closed at random: the property is about the bounds of the changes.
            client.post(`/account/keys/${key.id}/${path}`, { ...fields, ...(withCsrf ? { _csrf: csrf } : {}) }),
          ),
        );
        for (const answer of answers) {
          statuses.add(answer.status);
          expect(answer.status).toBeLessThan(500);
        }
      }),
      { numRuns: 100 },
    );
    expect([...statuses].some((status) => status === 429 || status === 303 || status === 200)).toBe(true);
    // Every change made holds one place in each of its windows, and no place is held without its change.
    const trail = await server.operator.auditTrail({ keyId: key.id, limit: 100_000 });
    const made = (...actions: string[]) =>
      trail.filter((entry) => entry.actor === holderActorOf('hostile@example.com') && actions.includes(entry.action))
        .length;
    const changes = {
      roll: made('keys roll'),
      origins: made('keys set-origins'),
      'allowance-mails': made('keys allowance-mails'),
      request: made('requests plan-change', 'requests renewal'),
    };
    const places = await placesOf(`key:${key.id}`);
    for (const [action, count] of Object.entries(changes)) {
      const bounds = holderActionBounds[action as keyof typeof changes].filter((bound) => bound.scope === 'key');
      for (const bound of bounds) {
        const held = places.find(
          (row) => row.action === action && row.window_seconds === (bound.per === 'hour' ? 3600 : 86_400),
        );
        expect([action, bound.per, held?.actions ?? 0]).toEqual([action, bound.per, count]);
        expect(count).toBeLessThanOrEqual(bound.atMost);
      }
    }
    expect((await server.operator.showKey(key.id)).state).toBe('active');
  });
});
