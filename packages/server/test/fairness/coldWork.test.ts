import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Problem } from '@quotes/service-base/problems';
import { ColdWork, coldWorkAtOnce } from '../../src/fairness/coldWork.js';
import { KeyFairness } from '../../src/fairness/keyFairness.js';

interface Tally {
  running: number;
  most: number;
  order: string[];
}

const newTally = (): Tally => ({ running: 0, most: 0, order: [] });

/** Work that stays running until `finish` is called, noting how many run at once and in which order they began. */
function heldWork(tally: Tally, name: string) {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let started = false;
  let finished = false;
  const work = async () => {
    started = true;
    tally.running++;
    tally.most = Math.max(tally.most, tally.running);
    tally.order.push(name);
    await done;
    tally.running--;
    return name;
  };
  return {
    work,
    finish: () => {
      finished = true;
      finish();
    },
    started: () => started,
    running: () => started && !finished,
  };
}

/** Lets admitted calls pass their yield to I/O and begin. */
const settle = async () => {
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
};

describe('cold work: free below the bound, in turn across keys at it', () => {
  it('starts every key’s new combinations at once below the bound, several a key, none waiting', async () => {
    const cold = new ColdWork({ atOnce: 16 });
    const tally = newTally();
    const calls = Array.from({ length: 8 }, (_, key) =>
      [0, 1].map((call) => ({ key: `k${key}`, held: heldWork(tally, `k${key}.${call}`) })),
    ).flat();
    const answers = calls.map(({ key, held }) => cold.run(key, true, held.work));
    await settle();
    expect([tally.running, cold.waited]).toEqual([16, 0]);
    for (const { held } of calls) held.finish();
    await Promise.all(answers);
  });

  it('gives a lone flood every place, and a bystander arriving behind its deep line the next one', async () => {
    const cold = new ColdWork({ atOnce: 2 });
    const tally = newTally();
    // Twelve calls: fewer than a key sends before it leads the cold calls and is paced.
    const flood = Array.from({ length: 12 }, (_, call) => heldWork(tally, `flood${call}`));
    const floodAnswers = flood.map((held) => cold.run('flood', true, held.work));
    await settle();
    // Alone with cold work, the flood runs as many at once as the bound allows.
    expect([tally.running, cold.waited]).toEqual([2, 10]);
    const bystander = heldWork(tally, 'bystander');
    const bystanderAnswer = cold.run('bystander', true, bystander.work);
    await settle();
    expect(bystander.started()).toBe(false);
    // The flood's turn (one call), then the bystander's: not behind the flood's 10 waiting.
    flood[0]?.finish();
    await settle();
    flood[1]?.finish();
    await settle();
    expect(tally.order).toEqual(['flood0', 'flood1', 'flood2', 'bystander']);
    bystander.finish();
    expect(await bystanderAnswer).toBe('bystander');
    for (const held of flood) held.finish();
    expect(await Promise.all(floodAnswers)).toEqual(flood.map((_, call) => `flood${call}`));
    expect([cold.waited, cold.refused, cold.trackedKeys]).toEqual([11, 0, 0]);
  });

  it('runs the calls of a key served alone at once, past the bound', async () => {
    const cold = new ColdWork({ atOnce: 2 });
    const tally = newTally();
    const calls = ['a', 'b', 'c', 'd'].map((name) => heldWork(tally, name));
    const answers = calls.map((call) => cold.run('alone', false, call.work));
    await settle();
    expect([tally.running, cold.waited]).toEqual([4, 0]);
    for (const call of calls) call.finish();
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('answers 429 rate-limited with Retry-After when the turn does not come before the deadline, and moves on', async () => {
    const cold = new ColdWork({ atOnce: 1, maxWaitMs: 50 });
    const held = heldWork(newTally(), 'held');
    const first = cold.run('flood', true, held.work);
    await settle();
    const thrown = await cold.run('other', true, async () => 'ran').catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Problem);
    const problem = thrown as Problem;
    expect([problem.status, problem.kind, problem.headers['Retry-After']]).toEqual([429, 'rate-limited', '1']);
    expect([cold.waited, cold.refused, cold.trackedKeys]).toEqual([1, 1, 0]);
    held.finish();
    expect(await first).toBe('held');
    expect(await cold.run('other', true, async () => 'next')).toBe('next');
    expect([cold.waited, cold.refused]).toEqual([1, 1]);
  });

  it('bounds cold calls at half the database pool, one at least', () => {
    expect([coldWorkAtOnce(20), coldWorkAtOnce(5), coldWorkAtOnce(4), coldWorkAtOnce(1)]).toEqual([10, 2, 2, 1]);
  });
});

describe('cold work: a property over random arrivals', () => {
  it('never holds a call while fewer than the bound run, unless its key is paced', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.oneof(fc.nat(4), fc.constant('finish' as const)), { maxLength: 40 }),
        async (atOnce, plan) => {
          const cold = new ColdWork({ atOnce });
          const tally = newTally();
          const calls: Array<ReturnType<typeof heldWork> & { key: string }> = [];
          const answers: Array<Promise<string>> = [];
          for (const step of plan) {
            if (step === 'finish') calls.find((call) => call.running())?.finish();
            else {
              const held = { ...heldWork(tally, `k${step}.${calls.length}`), key: `k${step}` };
              calls.push(held);
              answers.push(cold.run(`k${step}`, true, held.work));
            }
            await settle();
            const waitingUnpaced = calls.filter((call) => !call.started() && !cold.paces(call.key)).length;
            expect(waitingUnpaced === 0 || tally.running >= atOnce).toBe(true);
          }
          for (const call of calls) call.finish();
          await Promise.all(answers);
        },
      ),
      { numRuns: 60 },
    );
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
