import { describe, expect, it } from 'vitest';
import { Problem } from '@quotes/service-base/problems';
import { ColdWork } from '../../src/fairness/coldWork.js';
import { KeyFairness } from '../../src/fairness/keyFairness.js';

/** Work that stays running until `finish` is called, noting how many run at once. */
function heldWork(tally: { running: number; most: number; order: string[] }, name: string) {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let started: () => void = () => undefined;
  const began = new Promise<void>((resolve) => {
    started = resolve;
  });
  const work = async () => {
    tally.running++;
    tally.most = Math.max(tally.most, tally.running);
    tally.order.push(name);
    started();
    await done;
    tally.running--;
    return name;
  };
  return { work, finish: () => finish(), began };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('cold work: one key waits for its own new combinations while others are served', () => {
  it('runs a key served alone at once, all its calls together', async () => {
    const cold = new ColdWork();
    const tally = { running: 0, most: 0, order: [] as string[] };
    const calls = ['a', 'b', 'c', 'd'].map((name) => heldWork(tally, name));
    const answers = calls.map((call) => cold.run('flood', false, call.work));
    await Promise.all(calls.map((call) => call.began));
    expect(tally.most).toBe(4);
    for (const call of calls) call.finish();
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c', 'd']);
    expect(cold.waited).toBe(0);
  });

  it('runs one key’s calls one at a time, in arrival order, while other keys are served; other keys are not held by it', async () => {
    const cold = new ColdWork({ burst: 1e9 });
    const tally = { running: 0, most: 0, order: [] as string[] };
    const calls = ['a', 'b', 'c'].map((name) => heldWork(tally, name));
    const answers = calls.map((call) => cold.run('flood', true, call.work));
    await calls[0]?.began;
    await tick();
    expect(tally.order).toEqual(['a']);
    // Another key's cold call runs beside it at once.
    const other = heldWork({ running: 0, most: 0, order: [] }, 'x');
    const otherAnswer = cold.run('bystander', true, other.work);
    await other.began;
    other.finish();
    expect(await otherAnswer).toBe('x');
    for (const call of calls) {
      await call.began;
      await tick();
      call.finish();
    }
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c']);
    expect(tally.order).toEqual(['a', 'b', 'c']);
    expect(tally.most).toBe(1);
    expect(cold.waited).toBe(2);
  });

  it('holds a key past its rate until the rate allows one more call', async () => {
    // 20 a second after a burst of one: the second call waits 50 ms.
    const cold = new ColdWork({ perSecond: 20, burst: 1 });
    const startedAt = async () => performance.now();
    await cold.run('flood', true, startedAt);
    const asked = performance.now();
    expect((await cold.run('flood', true, startedAt)) - asked).toBeGreaterThanOrEqual(40);
    expect(cold.waited).toBe(1);
    // Alone, the same key is not held.
    const askedAlone = performance.now();
    expect((await cold.run('flood', false, startedAt)) - askedAlone).toBeLessThan(40);
    expect(cold.waited).toBe(1);
  });

  it('answers 429 rate-limited with Retry-After when the turn would come after the deadline', async () => {
    const cold = new ColdWork({ perSecond: 0.2, burst: 1, maxWaitMs: 100 });
    await cold.run('flood', true, async () => 'ran');
    const thrown = await cold.run('flood', true, async () => 'ran').catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Problem);
    const problem = thrown as Problem;
    expect([problem.status, problem.kind, problem.headers['Retry-After']]).toEqual([429, 'rate-limited', '5']);
    expect(cold.refused).toBe(1);
    // A call queued behind a running one is refused at its deadline too, and the queue moves on.
    const slow = new ColdWork({ maxWaitMs: 50, burst: 1e9 });
    const held = heldWork({ running: 0, most: 0, order: [] }, 'held');
    const first = slow.run('flood', true, held.work);
    await held.began;
    const queued = await slow.run('flood', true, async () => 'ran').catch((error: unknown) => error);
    expect((queued as Problem).kind).toBe('rate-limited');
    held.finish();
    expect(await first).toBe('held');
    expect(await slow.run('flood', true, async () => 'next')).toBe('next');
  });

  it('forgets keys that are idle and paid up, so memory follows the keys with cold work', async () => {
    let now = 0;
    const cold = new ColdWork({ perSecond: 100, burst: 20, now: () => now });
    for (let key = 0; key < 100; key++) await cold.run(`k${key}`, true, async () => undefined);
    expect(cold.trackedKeys).toBe(100);
    now += 10_000;
    await cold.run('last', false, async () => undefined);
    expect(cold.trackedKeys).toBe(1);
  });
});

describe('key fairness: whether a key is served alone', () => {
  it('says others are served while another key called within the last second', async () => {
    let now = 0;
    const fairness = new KeyFairness({ now: () => now });
    const work = async () => undefined;
    await fairness.run('flood', null, work);
    await fairness.run('flood', null, work);
    expect(fairness.othersServed('flood')).toBe(false);
    now = 100;
    await fairness.run('bystander', null, work);
    now = 200;
    for (let call = 0; call < 50; call++) await fairness.run('flood', null, work);
    expect(fairness.othersServed('flood')).toBe(true);
    expect(fairness.othersServed('bystander')).toBe(true);
    now = 1100;
    expect(fairness.othersServed('flood')).toBe(false);
  });
});
