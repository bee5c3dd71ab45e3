import { describe, expect, it } from 'vitest';
import { InFlightGate } from '../../src/fairness/inFlightGate.js';

describe('in-flight gate', () => {
  it('runs at most `running` at once, queues the next in order, refuses beyond the queue', async () => {
    const gate = new InFlightGate(2, 1, 5_000);
    const first = await gate.enter();
    const second = await gate.enter();
    expect(typeof first).toBe('function');
    expect(typeof second).toBe('function');
    let thirdIn = false;
    const third = gate.enter().then((entered) => {
      thirdIn = true;
      return entered;
    });
    expect(await gate.enter()).toBe('queue-full');
    await new Promise((resolve) => setImmediate(resolve));
    expect(thirdIn).toBe(false);
    (first as () => void)();
    const admitted = await third;
    expect(typeof admitted).toBe('function');
    // Releasing twice frees one place only.
    (first as () => void)();
    expect(await Promise.race([gate.enter(), new Promise((resolve) => setTimeout(() => resolve('waiting'), 50))])).toBe(
      'waiting',
    );
  });

  it('gives up on a wait past its deadline and forgets the waiter', async () => {
    const gate = new InFlightGate(1, 4, 30);
    const held = (await gate.enter()) as () => void;
    const started = Date.now();
    expect(await gate.enter()).toBe('waited-too-long');
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    held();
    expect(gate.idle).toBe(true);
  });
});
