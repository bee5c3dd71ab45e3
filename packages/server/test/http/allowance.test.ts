import { setUsage } from '@quotes/accounts/usage-override';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, httpFixture } from '../support/httpFixture.js';
import { manualClock, problemType } from '../../testing/testServer.js';

const clock = manualClock('2026-11-23T00:00:00Z');
let fixture: HttpFixture;

beforeAll(async () => {
  fixture = await httpFixture({ clock: clock.clock });
});
afterAll(() => fixture?.close());

/** The key's calls as the database holds them once this server has written what it counted. */
const callsOf = async (id: string, month?: string) => {
  await fixture.server.flushCounts();
  return (await fixture.server.operator.usage(id, month)).calls;
};

describe('the 429 boundary', () => {
  it('lets exactly the remaining calls through out of 200, 16 in flight at once; the counter ends at the limit', async () => {
    // Enterprise with its own allowance: a plan with no burst limit, so only the allowance cuts the 200.
    const issued = await fixture.server.createKey({ plan: 'enterprise', monthlyCalls: 1000 });
    await setUsage(fixture.server.database, issued.id, 1000 - 137, '2026-11');
    const paths = [
      '/v1/quotes-random',
      '/v1/quotes-filter?limit=2',
      '/v1/quotes-categories',
      '/v1/quotes-random?category=grief',
    ];
    // 16 in flight: the key runs 8 at once and queues the rest for at most 3 s, so the last calls
    // still race for the last of the allowance, while more in flight would only add waiting that a
    // loaded machine can push past that deadline (a 429 rate-limited, not counted).
    const answers: Array<Awaited<ReturnType<typeof fixture.server.call>>> = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < 200; i = next++)
          answers[i] = await fixture.server.call(paths[i % paths.length]!, { key: issued.key });
      }),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(137);
    expect(statuses.filter((status) => status === 429)).toHaveLength(63);
    expect(await callsOf(issued.id)).toBe(1000);
    // Every granted call saw its own remainder: 136 down to 0, each once.
    const remainders = answers
      .filter((answer) => answer.status === 200)
      .map((answer) => Number(answer.headers.get('x-ratelimit-remaining')));
    expect(remainders.sort((a, b) => a - b)).toEqual(Array.from({ length: 137 }, (_, i) => i));
  });

  it('answers allowance-exhausted with Retry-After and the allowance headers', async () => {
    const issued = await fixture.server.createKey({ plan: 'starter' });
    await setUsage(fixture.server.database, issued.id, 10000, '2026-11');
    const answer = await fixture.server.call('/v1/quotes-filter', { key: issued.key });
    expect([answer.status, problemType(answer)]).toEqual([429, 'allowance-exhausted']);
    expect(answer.headers.get('retry-after')).toBe('691200');
    expect(answer.headers.get('x-ratelimit-limit')).toBe('10000');
    expect(answer.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(answer.headers.get('ratelimit')).toBe('"monthly";r=0;t=691200');
    expect(answer.headers.get('ratelimit-policy')).toBe('"monthly";q=10000;w=2592000');
    expect((answer.body as { detail: string }).detail).toBe(
      'All 10000 calls of this month are used; the allowance resets at 2026-12-01T00:00:00Z.',
    );
    expect(await callsOf(issued.id)).toBe(10000);
  });

  it('refuses every call of a key with a zero allowance', async () => {
    const issued = await fixture.server.createKey({ plan: 'enterprise', monthlyCalls: 0 });
    const answer = await fixture.server.call('/v1/quotes-random', { key: issued.key });
    expect(answer.status).toBe(429);
    expect(await callsOf(issued.id)).toBe(0);
  });
});

describe('allowance headers on counted answers', () => {
  it('count down with each call', async () => {
    const issued = await fixture.server.createKey({ plan: 'professional' });
    const first = await fixture.server.call('/v1/quotes-random', { key: issued.key });
    const second = await fixture.server.call('/v1/quotes-categories', { key: issued.key });
    expect(first.headers.get('x-ratelimit-remaining')).toBe('49999');
    expect(second.headers.get('x-ratelimit-remaining')).toBe('49998');
    expect(second.headers.get('ratelimit')).toBe('"monthly";r=49998;t=691200');
    expect(second.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2026, 11, 1) / 1000));
  });

  it('on an unlimited plan: only the reset, and the call is still counted', async () => {
    const issued = await fixture.server.createKey({ plan: 'platform' });
    const answer = await fixture.server.call('/v1/quotes-random', { key: issued.key });
    expect(answer.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2026, 11, 1) / 1000));
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'ratelimit', 'ratelimit-policy'])
      expect(answer.headers.get(name)).toBeNull();
    expect(await callsOf(issued.id)).toBe(1);
  });
});

describe('which calls count', () => {
  it('2xx and the random 404 count; 400, 401, 403 and quotes-usage do not', async () => {
    const issued = await fixture.server.createKey({ plan: 'trial' });
    const call = (path: string, key = issued.key) => fixture.server.call(path, { key });
    expect((await call('/v1/quotes-random')).status).toBe(200); // 1
    expect((await call('/v1/quotes-filter?era=Ancient')).status).toBe(200); // 2
    expect((await call('/v1/quotes-filter?category=Athletes&offset=9999')).status).toBe(200); // 3 (an empty page is a 200)
    expect((await call('/v1/quotes-categories')).status).toBe(200); // 4
    const noMatch = await fixture.server.createKey({ plan: 'professional' });
    expect(
      (await call('/v1/quotes-random?category=Athletes&era=Ancient&faith=Taoist&length=short', noMatch.key)).status,
    ).toBe(404);
    expect(await callsOf(noMatch.id)).toBe(1);

    expect((await call('/v1/quotes-random?era=Jurassic')).status).toBe(400);
    expect((await call('/v1/quotes-filter?limit=0')).status).toBe(400);
    expect((await call('/v1/quotes-random?category=grief&mood=dark')).status).toBe(403); // plan-limit
    expect((await call('/v1/quotes-random?faith=Hindu')).status).toBe(403);
    expect((await call('/v1/quotes-usage')).status).toBe(200);
    expect((await call('/v1/quotes-usage')).status).toBe(200);
    expect(await callsOf(issued.id)).toBe(4);

    await fixture.server.operator.revokeKey(issued.id);
    expect((await call('/v1/quotes-random')).status).toBe(403);
    expect(await callsOf(issued.id)).toBe(4);
  });

  it('a 429 is not counted: the counter stays at the limit', async () => {
    const issued = await fixture.server.createKey({ plan: 'enterprise', monthlyCalls: 2 });
    for (let i = 0; i < 5; i++) await fixture.server.call('/v1/quotes-random', { key: issued.key });
    expect(await callsOf(issued.id)).toBe(2);
  });
});

describe('month rollover (injected clock, UTC)', () => {
  it('resets the allowance at 00:00 UTC on the 1st, keeping the old month on record', async () => {
    clock.set('2026-11-30T23:59:58Z');
    try {
      const issued = await fixture.server.createKey({ plan: 'enterprise', monthlyCalls: 3 });
      for (let i = 0; i < 3; i++)
        expect((await fixture.server.call('/v1/quotes-random', { key: issued.key })).status).toBe(200);
      const exhausted = await fixture.server.call('/v1/quotes-random', { key: issued.key });
      expect(exhausted.status).toBe(429);
      expect(exhausted.headers.get('retry-after')).toBe('2');

      clock.set('2026-12-01T00:00:00Z');
      const fresh = await fixture.server.call('/v1/quotes-random', { key: issued.key });
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get('x-ratelimit-remaining')).toBe('2');
      expect(fresh.headers.get('ratelimit-policy')).toBe('"monthly";q=3;w=2678400'); // December: 31 days
      expect(fresh.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2027, 0, 1) / 1000));
      const usage = (await fixture.server.call('/v1/quotes-usage', { key: issued.key })).body;
      expect(usage).toMatchObject({ calls_this_month: 1, resets_at: '2027-01-01T00:00:00Z' });
      expect(await callsOf(issued.id, '2026-11')).toBe(3);
      expect(await callsOf(issued.id, '2026-12')).toBe(1);
    } finally {
      clock.set('2026-11-23T00:00:00Z');
    }
  });
});
