import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { settledWithin } from '../src/settledWithin.js';

describe('waiting for work at most a while', () => {
  it('says true as soon as the work settles, fulfilled or rejected', async () => {
    const started = performance.now();
    expect(await settledWithin(sleep(20), 5000)).toBe(true);
    expect(await settledWithin(Promise.reject(new Error('failed')), 5000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('says false at the deadline when the work is still running', async () => {
    const started = performance.now();
    expect(await settledWithin(new Promise(() => {}), 100)).toBe(false);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(95);
    expect(waited).toBeLessThan(2000);
  });

  it('does not wait at all when no time is left', async () => {
    expect(await settledWithin(new Promise(() => {}), -10)).toBe(false);
  });
});
