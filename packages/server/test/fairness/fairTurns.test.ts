import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FairTurns } from '../../src/fairness/fairTurns.js';

/** Starts every call `count` times for `keyId`; returns those that started at once. */
function arriveMany(turns: FairTurns<string>, keyId: string, count: number): string[] {
  const started: string[] = [];
  for (let call = 0; call < count; call++) if (turns.arrive(keyId, `${keyId}${call}`)) started.push(keyId);
  return started;
}

/** Frees `count` places one after another: the keys whose waiting calls got them, in order. */
function finishMany(turns: FairTurns<string>, count: number): string[] {
  const served: string[] = [];
  for (let call = 0; call < count; call++) {
    const next = turns.finish();
    if (next !== undefined) served.push(next.replace(/\d+$/, ''));
  }
  return served;
}

describe('fair turns: work-conserving deficit round robin across keys', () => {
  it('starts every call while fewer than the bound run, whatever its key', () => {
    const turns = new FairTurns<string>(16);
    const started = Array.from({ length: 8 }, (_, key) => arriveMany(turns, `k${key}-`, 2)).flat();
    expect([started.length, turns.running, turns.waiting]).toEqual([16, 16, 0]);
    // The 17th waits.
    expect(turns.arrive('k0-', 'k0-9')).toBe(false);
    expect([turns.running, turns.waiting, turns.waitingKeys]).toEqual([16, 1, 1]);
  });

  it("serves a bystander's call within one round of a flood's deep line, then alternates", () => {
    const turns = new FairTurns<string>(2);
    expect(arriveMany(turns, 'flood', 50)).toEqual(['flood', 'flood']);
    expect(turns.arrive('bystander', 'bystander0')).toBe(false);
    expect(turns.arrive('bystander', 'bystander1')).toBe(false);
    // The flood's turn (one call) first, then the bystander's, then in turn while both wait.
    expect(finishMany(turns, 5)).toEqual(['flood', 'bystander', 'flood', 'bystander', 'flood']);
    expect([turns.running, turns.waiting, turns.waitingKeys]).toEqual([2, 45, 1]);
  });

  it('gives each waiting key `quantum` calls a turn', () => {
    const turns = new FairTurns<string>(1, 3);
    arriveMany(turns, 'a', 10);
    arriveMany(turns, 'b', 10);
    arriveMany(turns, 'c', 2);
    expect(finishMany(turns, 11)).toEqual(['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'a', 'a', 'a']);
  });

  it('lets a call that gave up leave its line, and frees the place when nobody waits', () => {
    const turns = new FairTurns<string>(1);
    expect(turns.arrive('a', 'a0')).toBe(true);
    expect(turns.arrive('b', 'b0')).toBe(false);
    expect(turns.withdraw('b', 'b0')).toBe(true);
    expect(turns.withdraw('b', 'b0')).toBe(false);
    expect([turns.waiting, turns.waitingKeys]).toEqual([0, 0]);
    expect(turns.finish()).toBeUndefined();
    expect(turns.running).toBe(0);
  });

  it('starts the call of a key served alone beyond the bound while nobody waits, holding a place', () => {
    const turns = new FairTurns<string>(1);
    expect(turns.arrive('a', 'a0')).toBe(true);
    expect(turns.arrive('a', 'a1', true)).toBe(true);
    expect(turns.arrive('b', 'b0')).toBe(false);
    // Somebody waits: even a key served alone queues behind.
    expect(turns.arrive('a', 'a2', true)).toBe(false);
    expect(turns.finish()).toBe('b0');
    expect(turns.running).toBe(2);
  });
});

type Step = { kind: 'arrive'; key: number; alone: boolean } | { kind: 'finish' } | { kind: 'withdraw'; pick: number };

const steps = (keys: number) =>
  fc.array(
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          kind: fc.constant('arrive' as const),
          key: fc.nat(keys - 1),
          alone: fc.constant(false),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('arrive' as const), key: fc.nat(keys - 1), alone: fc.constant(true) }),
      },
      { weight: 5, arbitrary: fc.record({ kind: fc.constant('finish' as const) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), pick: fc.nat() }) },
    ),
    { minLength: 20, maxLength: 200 },
  );

describe('fair turns: properties over random arrivals', () => {
  it('no call waits while fewer than the bound run; keys waiting throughout get served within one quantum of each other', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 2, max: 6 }).chain((keys) => steps(keys)),
        (bound, quantum, plan: Step[]) => {
          const turns = new FairTurns<number>(bound, quantum);
          const waiting = new Map<number, { key: string; id: number }>();
          /** Per key, the step its current unbroken wait began (absent: nothing waiting). */
          const waitingSince = new Map<string, number>();
          const admissions: Array<{ key: string; since: Map<string, number> }> = [];
          let id = 0;
          const count = (key: string) => [...waiting.values()].filter((call) => call.key === key).length;
          plan.forEach((step, at) => {
            if (step.kind === 'arrive') {
              const key = `k${step.key}`;
              const call = id++;
              const runningBefore = turns.running;
              const waitingBefore = turns.waiting;
              const started = turns.arrive(key, call, step.alone);
              // Work-conserving: it starts exactly when a place is free (or alone with nobody waiting).
              expect(started).toBe(runningBefore < bound || (step.alone && waitingBefore === 0));
              if (!started) {
                waiting.set(call, { key, id: call });
                if (!waitingSince.has(key)) waitingSince.set(key, at);
              }
            } else if (step.kind === 'finish') {
              if (turns.running === 0) return;
              const since = new Map(waitingSince);
              const next = turns.finish();
              if (next === undefined) {
                expect(waiting.size).toBe(0);
                return;
              }
              const call = waiting.get(next);
              expect(call).toBeDefined();
              waiting.delete(next);
              admissions.push({ key: call?.key ?? '', since });
              if (call && count(call.key) === 0) waitingSince.delete(call.key);
            } else {
              const calls = [...waiting.values()];
              const call = calls[step.pick % Math.max(1, calls.length)];
              if (!call) return;
              expect(turns.withdraw(call.key, call.id)).toBe(true);
              waiting.delete(call.id);
              if (count(call.key) === 0) waitingSince.delete(call.key);
            }
            // Nobody waits while a place is free.
            expect(turns.waiting === 0 || turns.running >= bound).toBe(true);
            expect(turns.waiting).toBe(waiting.size);
          });
          // In any run of admissions during which two keys waited without a break, their counts
          // of places differ by at most one quantum.
          for (let first = 0; first < admissions.length; first++) {
            const start = admissions[first]!.since;
            const served = new Map<string, number>();
            for (let last = first; last < admissions.length; last++) {
              const admission = admissions[last]!;
              served.set(admission.key, (served.get(admission.key) ?? 0) + 1);
              const throughout = [...start.keys()].filter((key) => admission.since.get(key) === start.get(key));
              for (const a of throughout)
                for (const b of throughout)
                  expect(Math.abs((served.get(a) ?? 0) - (served.get(b) ?? 0))).toBeLessThanOrEqual(quantum);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
