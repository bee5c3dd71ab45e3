import { describe, expect, it } from 'vitest';
import { startedTogether } from '../src/startedTogether.js';

describe('starting together', () => {
  it('gives every start its value, in order, and stops nothing', async () => {
    let stops = 0;
    const values = await startedTogether([Promise.resolve(1), Promise.resolve('two')], async () => {
      stops++;
    });
    expect(values).toEqual([1, 'two']);
    expect(stops).toBe(0);
  });

  it('stops what started once every start has settled, and throws the first failure', async () => {
    const order: string[] = [];
    const late = new Promise<string>((resolve) => setTimeout(() => resolve('late'), 20)).then((value) => {
      order.push('late started');
      return value;
    });
    await expect(
      startedTogether([Promise.reject(new Error('first')), late, Promise.reject(new Error('second'))], async () => {
        order.push('stopped');
      }),
    ).rejects.toThrow('first');
    expect(order).toEqual(['late started', 'stopped']);
  });
});
