import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Problem } from '@quotes/service-base/problems';
import { ColdPacing } from '../../src/fairness/coldPacing.js';
import { ColdShares } from '../../src/fairness/coldShares.js';
import { ColdWork } from '../../src/fairness/coldWork.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('cold shares: which key sends most of the recent cold calls', () => {
  it('names a key that sent more than half of the calls, once it sent 16', () => {
    const shares = new ColdShares();
    for (let call = 0; call < 15; call++) shares.note('flood', 0);
    expect(shares.leads('flood', 0)).toBe(false);
    shares.note('flood', 0);
    expect(shares.leads('flood', 0)).toBe(true);
    for (let call = 0; call < 15; call++) shares.note('other', 0);
    expect([shares.leads('flood', 0), shares.leads('other', 0)]).toEqual([true, false]);
    shares.note('other', 0);
    expect([shares.leads('flood', 0), shares.leads('other', 0)]).toEqual([false, false]);
  });

  it('forgets old calls: a key silent for seconds no longer leads, and is no longer held', () => {
    const shares = new ColdShares();
    for (let call = 0; call < 100; call++) shares.note('flood', call);
    expect(shares.leads('flood', 100)).toBe(true);
    // Eight half-lives later its 100 calls count for less than one.
    shares.note('other', 8100);
    expect([shares.leads('flood', 8100), shares.trackedKeys]).toEqual([false, 1]);
  });

  it('never names a key that sent at most half of the calls (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(5), fc.nat(50)), { maxLength: 300 }), (calls) => {
        const shares = new ColdShares();
        const sent = new Map<string, number>();
        let now = 0;
        for (const [key, gap] of calls) {
          now += gap;
          shares.note(`k${key}`, now);
          sent.set(`k${key}`, (sent.get(`k${key}`) ?? 0) + 1);
        }
        // With no time passing after the last call and the same weights for all, a key leads only
        // if its share of the decayed calls is over half: never for a key sending every call's
        // gap evenly with another. Checked here: the leader, if any, is unique.
        const leaders = [...sent.keys()].filter((key) => shares.leads(key, now));
        expect(leaders.length).toBeLessThanOrEqual(1);
        for (const key of leaders) expect(sent.get(key)).toBeGreaterThanOrEqual(16);
      }),
      { numRuns: 200 },
    );
  });
});

describe('cold pacing: one call at a time, each after a pause as long as the last one took', () => {
  it('starts the next call no sooner after the last one ended than it took', async () => {
    const pacing = new ColdPacing();
    expect(await pacing.enter('flood', 1000)).toBe(true);
    const next = pacing.enter('flood', 1000);
    await sleep(5);
    const endedAt = performance.now();
    pacing.finish('flood', 30);
    expect(await next).toBe(true);
    expect(performance.now() - endedAt).toBeGreaterThanOrEqual(29);
    pacing.finish('flood', 0);
  });

  it('refuses a call whose turn or pause would pass its deadline, and the lane goes on', async () => {
    const pacing = new ColdPacing();
    let waits = 0;
    expect(await pacing.enter('flood', 1000)).toBe(true);
    expect(await pacing.enter('flood', 10, () => waits++)).toBe(false);
    pacing.finish('flood', 200);
    // The pause (200 ms) is longer than this call may wait: refused.
    expect(await pacing.enter('flood', 50, () => waits++)).toBe(false);
    expect(await pacing.enter('flood', 1000, () => waits++)).toBe(true);
    pacing.finish('flood', 0);
    expect(await pacing.enter('flood', 1000)).toBe(true);
    pacing.finish('flood', 0);
    expect(waits).toBe(3);
  });
});

interface Span {
  start: number;
  end: number;
}

/** `count` cold calls of one key sent together, each running `ms`; when each began and ended, in order of start. */
async function floodOf(cold: ColdWork, contended: boolean, count: number, ms: number): Promise<Span[]> {
  const spans: Span[] = [];
  await Promise.all(
    Array.from({ length: count }, () =>
      cold.run('flood', contended, async () => {
        const span = { start: performance.now(), end: 0 };
        spans.push(span);
        await sleep(ms);
        span.end = performance.now();
      }),
    ),
  );
  return spans;
}

describe('cold work: a key leading the cold calls beside other keys is paced', () => {
  it('runs its calls one at a time, at most about half the time, once it leads', async () => {
    const cold = new ColdWork({ atOnce: 4 });
    const spans = await floodOf(cold, true, 26, 4);
    // The first 16 calls, before the key leads, share the four places; each one after them starts
    // alone, no sooner after the one before it ended than that one took.
    const paced = spans.slice(16);
    for (let call = 1; call < paced.length; call++) {
      const before = paced[call - 1] as Span;
      const span = paced[call] as Span;
      expect(span.start).toBeGreaterThanOrEqual(before.end + (before.end - before.start) - 1);
    }
    // All but the first four (one a place) waited: for a place, or for their pace.
    expect(cold.waited).toBe(22);
  });

  it('lets the same calls run at once when the key is served alone', async () => {
    const cold = new ColdWork({ atOnce: 4 });
    const spans = await floodOf(cold, false, 26, 4);
    const lastStart = Math.max(...spans.map((span) => span.start));
    const firstEnd = Math.min(...spans.map((span) => span.end));
    expect(lastStart).toBeLessThan(firstEnd);
    expect(cold.waited).toBe(0);
  });

  it('answers a paced call whose turn does not come in time 429 rate-limited, and says why', async () => {
    const cold = new ColdWork({ atOnce: 17, maxWaitMs: 1000 });
    // Sixteen calls at once, below the bound: none waits, and the key leads. Eight more, paced one
    // after another, keep its count (16 needed, halving each second) above 16 through a stall of
    // the event loop of up to 0.4 s. Its next call takes 200 ms, so the call after it pauses about
    // that long (a pause a stall between the two shorter than that would not use up).
    await Promise.all(Array.from({ length: 16 }, () => cold.run('flood', true, () => sleep(1))));
    expect(cold.waited).toBe(0);
    for (let call = 0; call < 8; call++) await cold.run('flood', true, () => sleep(1));
    await cold.run('flood', true, () => sleep(200));
    expect(cold.paces('flood')).toBe(true);
    const waitedBefore = cold.waited;
    // Six more, 700 ms each: the first runs after that pause; the second's pause would end past
    // its 1,000 ms, and the other four are still in line at theirs. The first has 800 ms of slack
    // for a stalled event loop.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, () => cold.run('flood', true, () => sleep(700))),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', ...Array(5).fill('rejected')]);
    for (const outcome of outcomes.slice(1)) {
      const problem = (outcome as PromiseRejectedResult).reason as Problem;
      expect([problem.status, problem.kind, problem.headers['Retry-After']]).toEqual([429, 'rate-limited', '1']);
      expect(problem.message).toMatch(/one at a time, at most half the time/);
    }
    expect([cold.waited - waitedBefore, cold.refused, cold.pacedKeys]).toEqual([6, 5, 1]);
  });
});
