import { setUsage } from '@quotes/accounts/usage-override';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, httpFixtureWithKey } from '../support/httpFixture.js';
import { capturedLogger, manualClock, problemType } from '../../testing/testServer.js';

const clock = manualClock('2026-11-10T12:00:00Z');
const log = capturedLogger();
let fixture: HttpFixture;
let key: string;

beforeAll(
  async () => ({ fixture, key } = await httpFixtureWithKey('professional', { clock: clock.clock, logger: log.logger })),
);
afterAll(() => fixture?.close());

const call = (path: string, options?: Parameters<HttpFixture['server']['call']>[1]) =>
  fixture.server.call(path, options);

describe('step 1: a key, present and known (401)', () => {
  it('accepts the key in X-API-Key', async () => {
    expect((await call('/v1/quotes-random', { key })).status).toBe(200);
  });

  it('accepts the key as Authorization: Bearer, scheme in any case', async () => {
    expect((await call('/v1/quotes-random', { bearer: key })).status).toBe(200);
    expect((await call('/v1/quotes-random', { headers: { Authorization: `bearer ${key}` } })).status).toBe(200);
  });

  it('accepts both headers when they carry the same key', async () => {
    expect((await call('/v1/quotes-random', { key, bearer: key })).status).toBe(200);
  });

  it('answers missing-api-key without a key, or with another Authorization scheme', async () => {
    const none = await call('/v1/quotes-random');
    expect([none.status, problemType(none)]).toEqual([401, 'missing-api-key']);
    const basic = await call('/v1/quotes-random', { headers: { Authorization: 'Basic dXNlcjpwYXNz' } });
    expect([basic.status, problemType(basic)]).toEqual([401, 'missing-api-key']);
  });

  it('answers invalid-api-key for an unknown key or anything not shaped like one', async () => {
    const unknown = await call('/v1/quotes-random', { key: `qk_${'A'.repeat(24)}` });
    expect([unknown.status, problemType(unknown)]).toEqual([401, 'invalid-api-key']);
    const garbage = await call('/v1/quotes-random', { bearer: 'not-a-key' });
    expect([garbage.status, problemType(garbage)]).toEqual([401, 'invalid-api-key']);
  });

  it('answers conflicting-api-keys when the two headers differ, whichever is valid', async () => {
    const other = (await fixture.server.createKey({ plan: 'starter' })).key;
    const twoValid = await call('/v1/quotes-random', { key, bearer: other });
    expect([twoValid.status, problemType(twoValid)]).toEqual([401, 'conflicting-api-keys']);
    const oneUnknown = await call('/v1/quotes-usage', { key, bearer: `qk_${'B'.repeat(24)}` });
    expect([oneUnknown.status, problemType(oneUnknown)]).toEqual([401, 'conflicting-api-keys']);
  });

  it('challenges every 401 with both schemes (RFC 9110 WWW-Authenticate, RFC 6750 error codes)', async () => {
    const challenge = (answer: { headers: Headers }) => answer.headers.get('www-authenticate');
    expect(challenge(await call('/v1/quotes-random'))).toBe(
      'Bearer realm="quotes", ApiKey realm="quotes", header="X-API-Key"',
    );
    expect(challenge(await call('/v1/quotes-random', { key: `qk_${'A'.repeat(24)}` }))).toBe(
      'Bearer realm="quotes", error="invalid_token", ApiKey realm="quotes", header="X-API-Key"',
    );
    const other = (await fixture.server.createKey({ plan: 'starter' })).key;
    expect(challenge(await call('/v1/quotes-random', { key, bearer: other }))).toBe(
      'Bearer realm="quotes", error="invalid_request", ApiKey realm="quotes", header="X-API-Key"',
    );
    // Not on answers that are not 401.
    expect(challenge(await call('/v1/quotes-random', { key }))).toBeNull();
  });

  it('marks every /v1 answer nosniff and uncacheable, except the revalidated filter values', async () => {
    for (const answer of [
      await call('/v1/quotes-random', { key }),
      await call('/v1/quotes-filter?limit=1', { key }),
      await call('/v1/quotes-usage', { key }),
      await call('/v1/quotes-random'),
      await call('/v1/quotes-filter?era=Jurassic', { key }),
    ]) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
    const values = await call('/v1/quotes-categories', { key });
    expect(values.headers.get('x-content-type-options')).toBe('nosniff');
    expect(values.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('protects every operation', async () => {
    for (const path of ['/v1/quotes-random', '/v1/quotes-filter', '/v1/quotes-categories', '/v1/quotes-usage']) {
      expect((await call(path)).status).toBe(401);
    }
  });
});

describe('step 2: a key neither revoked nor expired (403)', () => {
  it('answers revoked-api-key once the operator revokes the key, with the time', async () => {
    const issued = await fixture.server.createKey({ plan: 'starter' });
    expect((await call('/v1/quotes-usage', { key: issued.key })).status).toBe(200);
    await fixture.server.operator.revokeKey(issued.id, 'leaked in a public repository');
    const answer = await call('/v1/quotes-random', { key: issued.key });
    expect([answer.status, problemType(answer)]).toEqual([403, 'revoked-api-key']);
    expect((answer.body as { detail: string }).detail).toMatch(/revoked on \d{4}-\d{2}-\d{2}T/);
    // Usage is refused too: a revoked key gets nothing.
    expect((await call('/v1/quotes-usage', { key: issued.key })).status).toBe(403);
  });

  it('answers expired-api-key after the expiry, and renewing reactivates the key', async () => {
    const issued = await fixture.server.createKey({ plan: 'trial' });
    expect(issued.expires_at).toBe('2026-12-10T12:00:00Z'); // 30 days from issue
    const paid = await fixture.server.createKey({ plan: 'starter', expiresAt: new Date('2026-12-01T00:00:00Z') });
    expect((await call('/v1/quotes-random', { key: issued.key })).status).toBe(200);
    clock.set('2026-12-10T12:00:00Z');
    try {
      const answer = await call('/v1/quotes-random', { key: issued.key });
      expect([answer.status, problemType(answer)]).toEqual([403, 'expired-api-key']);
      expect((answer.body as { detail: string }).detail).toBe('This API key expired on 2026-12-10T12:00:00Z.');
      // A trial is never renewed past its 30 days; a paid key with an expiry is.
      await expect(fixture.server.operator.renewKey(issued.id, new Date('2027-01-01T00:00:00Z'))).rejects.toThrow(
        /at most 30 days from issue/,
      );
      expect((await call('/v1/quotes-random', { key: paid.key })).status).toBe(403);
      await fixture.server.operator.renewKey(paid.id, new Date('2027-01-01T00:00:00Z'));
      expect((await call('/v1/quotes-random', { key: paid.key })).status).toBe(200);
    } finally {
      clock.set('2026-11-10T12:00:00Z');
    }
  });
});

describe('the order of checks', () => {
  it('puts 401 before 400', async () => {
    expect((await call('/v1/quotes-filter?limit=0&bogus=1')).status).toBe(401);
  });

  it('puts 403 revoked before 400', async () => {
    const issued = await fixture.server.createKey({ plan: 'starter' });
    await fixture.server.operator.revokeKey(issued.id);
    const answer = await call('/v1/quotes-filter?limit=0&bogus=1', { key: issued.key });
    expect(problemType(answer)).toBe('revoked-api-key');
  });

  it('puts 400 before the plan rules', async () => {
    const trial = (await fixture.server.createKey({ plan: 'trial' })).key;
    const answer = await call('/v1/quotes-random?category=grief&mood=dark&faith=Buddhist&era=Future', { key: trial });
    expect([answer.status, problemType(answer)]).toEqual([400, 'invalid-request']);
  });

  it('puts the plan rules before the allowance', async () => {
    const issued = await fixture.server.createKey({ plan: 'trial' });
    await setUsage(fixture.server.database, issued.id, 1000, '2026-11');
    const beyondPlan = await call('/v1/quotes-random?category=grief&mood=dark', { key: issued.key });
    expect(problemType(beyondPlan)).toBe('plan-limit');
    expect(problemType(await call('/v1/quotes-random?category=grief', { key: issued.key }))).toBe(
      'allowance-exhausted',
    );
  });
});

describe('keys in logs', () => {
  it('never appear in the request log', async () => {
    await call('/v1/quotes-random', { key });
    await call('/v1/quotes-random', { bearer: key });
    await call('/v1/quotes-random', { key: `qk_${'C'.repeat(24)}` });
    const text = log.lines.join('');
    expect(text).toContain('"url":"/v1/quotes-random"');
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(3));
    expect(text).not.toContain('C'.repeat(24));
  });

  it('are redacted should headers ever be logged', () => {
    const probe = capturedLogger();
    probe.logger.info(
      { req: { headers: { 'x-api-key': key, authorization: `Bearer ${key}` } }, headers: { 'x-api-key': key } },
      'probe',
    );
    const text = probe.lines.join('');
    expect(text).not.toContain(key);
    expect(text).toContain('"x-api-key":"[redacted]"');
    expect(text).toContain('"authorization":"[redacted]"');
  });

  it('carry a request id, returned to the client and used as the problem instance', async () => {
    const answer = await call('/v1/quotes-random', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(answer.headers.get('x-request-id')).toBe('trace-123');
    expect((answer.body as { instance: string }).instance).toBe('trace-123');
    expect(log.lines.some((line) => line.includes('"reqId":"trace-123"'))).toBe(true);
  });
});
