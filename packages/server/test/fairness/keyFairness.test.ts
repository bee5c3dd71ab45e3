import { describe, expect, it } from 'vitest';
import { KeyFairness } from '../../src/fairness/keyFairness.js';
import { Problem } from '@quotes/service-base/problems';

const work = () => Promise.resolve('done');

async function refusal(promise: Promise<unknown>): Promise<Problem> {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(Problem);
  return thrown as Problem;
}

describe('key fairness (step 5)', () => {
  it('refuses a key past its burst with rate-limited and Retry-After, other keys unaffected', async () => {
    let now = 0;
    const fairness = new KeyFairness({ now: () => now });
    for (let call = 0; call < 3; call++) expect(await fairness.run('a', 3, work)).toBe('done');
    const problem = await refusal(fairness.run('a', 3, work));
    expect([problem.status, problem.kind, problem.headers['Retry-After']]).toEqual([429, 'rate-limited', '1']);
    expect(await fairness.run('b', 3, work)).toBe('done');
    now = 1000;
    expect(await fairness.run('a', 3, work)).toBe('done');
  });

  it('sets no burst limit where the plan has none', async () => {
    const fairness = new KeyFairness({ now: () => 0 });
    const answers = [];
    for (let call = 0; call < 1000; call++) answers.push(await fairness.run('a', null, work));
    expect(answers).toEqual(Array.from({ length: 1000 }, () => 'done'));
  });

  it('bounds the calls of one key at once; beyond the queue, rate-limited with Retry-After 1', async () => {
    const fairness = new KeyFairness({ maxInFlight: 2, maxQueued: 1, maxWaitMs: 5_000 });
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let running = 0;
    let most = 0;
    const slow = async () => {
      running++;
      most = Math.max(most, running);
      await gate;
      running--;
      return 'slow';
    };
    const admitted = [fairness.run('a', null, slow), fairness.run('a', null, slow), fairness.run('a', null, slow)];
    const problem = await refusal(fairness.run('a', null, slow));
    expect([problem.kind, problem.headers['Retry-After']]).toEqual(['rate-limited', '1']);
    expect(await fairness.run('b', null, work)).toBe('done');
    open();
    expect(await Promise.all(admitted)).toEqual(['slow', 'slow', 'slow']);
    expect(most).toBe(2);
  });

  it('releases the place when the work fails', async () => {
    const fairness = new KeyFairness({ maxInFlight: 1, maxQueued: 0 });
    await expect(fairness.run('a', null, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await fairness.run('a', null, work)).toBe('done');
  });

  it('forgets idle keys, so memory follows the keys in use', async () => {
    let now = 0;
    const fairness = new KeyFairness({ now: () => now });
    for (let key = 0; key < 100; key++) await fairness.run(`key${key}`, 10, work);
    expect(fairness.trackedKeys).toBe(100);
    now = 5_000;
    await fairness.run('other', 10, work);
    expect(fairness.trackedKeys).toBe(1);
  });
});
