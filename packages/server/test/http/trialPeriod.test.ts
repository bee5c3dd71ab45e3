import { setUsage } from '@quotes/accounts/usage-override';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, httpFixture } from '../support/httpFixture.js';
import { manualClock, problemType } from '../../testing/testServer.js';

// A trial's allowance is 1,000 calls over its 30 days, not per calendar month: these keys are
// issued on the 29th, so their 30 days cross the 1st.
const issuedAt = '2026-11-29T12:00:00Z';
const expiresAt = '2026-12-29T12:00:00Z';
const clock = manualClock(issuedAt);
let fixture: HttpFixture;

beforeAll(async () => {
  fixture = await httpFixture({ clock: clock.clock });
});
afterAll(() => fixture?.close());

const call = (key: string) => fixture.server.call('/v1/quotes-random', { key });
const secondsUntil = (iso: string) => Math.ceil((Date.parse(iso) - clock.clock().getTime()) / 1000);
const callsOf = async (id: string, month: string) => {
  await fixture.server.flushCounts();
  return (await fixture.server.operator.usage(id, month)).calls;
};

describe('a trial key across the 1st', () => {
  it('spends 1,000 calls before the 1st and is refused the 1,001st after it, until it expires', async () => {
    clock.set(issuedAt);
    const trial = await fixture.server.createKey({ plan: 'trial' });
    expect(trial.expires_at).toBe(expiresAt);
    await setUsage(fixture.server.database, trial.id, 997, '2026-11');
    for (let i = 0; i < 3; i++) expect((await call(trial.key)).status).toBe(200);
    const last = await call(trial.key);
    expect([last.status, problemType(last)]).toEqual([429, 'allowance-exhausted']);
    expect(await callsOf(trial.id, '2026-11')).toBe(1000);

    clock.set('2026-12-01T00:00:00Z');
    const afterFirst = await call(trial.key);
    expect([afterFirst.status, problemType(afterFirst)]).toEqual([429, 'allowance-exhausted']);
    expect(afterFirst.headers.get('retry-after')).toBe(String(secondsUntil(expiresAt)));
    expect(afterFirst.headers.get('x-ratelimit-reset')).toBe(String(Date.parse(expiresAt) / 1000));
    expect(afterFirst.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(afterFirst.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(afterFirst.headers.get('ratelimit-policy')).toBe('"validity";q=1000;w=2592000');
    expect((afterFirst.body as { detail: string }).detail).toBe(
      `All 1000 calls of this key's 30 days are used; the key expires at ${expiresAt}.`,
    );
    const usage = (await fixture.server.call('/v1/quotes-usage', { key: trial.key })).body;
    expect(usage).toMatchObject({
      calls_this_month: 0,
      calls_in_period: 1000,
      call_limit: 1000,
      calls_remaining: 0,
      usage_pct: 100,
      period_start: issuedAt,
      resets_at: expiresAt,
    });
    // The operator's view of the key (CLI `keys show`, the console, the holder's page) says the same.
    expect((await fixture.server.operator.showKey(trial.id)).usage).toMatchObject({
      calls: 1000,
      limit: 1000,
      remaining: 0,
      periodStart: issuedAt,
      periodEnd: expiresAt,
    });

    // Still refused later in the month (the earlier month's calls now remembered), a second before expiry.
    clock.set('2026-12-29T11:59:59Z');
    const lastSecond = await call(trial.key);
    expect([lastSecond.status, lastSecond.headers.get('retry-after')]).toEqual([429, '1']);
    clock.set(expiresAt);
    expect(problemType(await call(trial.key))).toBe('expired-api-key');
    expect(await callsOf(trial.id, '2026-12')).toBe(0);
  });

  it('spread over two months: 600 before the 1st and 400 after it, then refused', async () => {
    clock.set(issuedAt);
    const trial = await fixture.server.createKey({ plan: 'trial' });
    await setUsage(fixture.server.database, trial.id, 598, '2026-11');
    for (let i = 0; i < 2; i++) expect((await call(trial.key)).status).toBe(200);

    clock.set('2026-12-10T08:00:00Z');
    await setUsage(fixture.server.database, trial.id, 397, '2026-12');
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call(trial.key));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    expect(answers[0]?.headers.get('ratelimit')).toBe(`"validity";r=2;t=${secondsUntil(expiresAt)}`);
    expect(await callsOf(trial.id, '2026-11')).toBe(600);
    expect(await callsOf(trial.id, '2026-12')).toBe(400);
    const usage = (await fixture.server.call('/v1/quotes-usage', { key: trial.key })).body;
    expect(usage).toMatchObject({ calls_this_month: 400, calls_in_period: 1000, calls_remaining: 0 });
  });

  it('a monthly plan is unchanged: the 1st resets it', async () => {
    clock.set('2026-11-29T12:00:00Z');
    const starter = await fixture.server.createKey({ plan: 'starter' });
    await setUsage(fixture.server.database, starter.id, 10000, '2026-11');
    expect((await call(starter.key)).status).toBe(429);
    clock.set('2026-12-01T00:00:00Z');
    const fresh = await call(starter.key);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-ratelimit-remaining')).toBe('9999');
    expect(fresh.headers.get('ratelimit-policy')).toBe('"monthly";q=10000;w=2678400');
    const usage = (await fixture.server.call('/v1/quotes-usage', { key: starter.key })).body;
    expect(usage).toMatchObject({
      calls_this_month: 1,
      calls_in_period: 1,
      period_start: '2026-12-01T00:00:00Z',
      resets_at: '2027-01-01T00:00:00Z',
    });
  });
});
