import { describe, expect, it } from 'vitest';

// The built module: it runs the built worker (dist/historyMemoryWorker.js) in a process of its own.
const { measureHistoryMemory } = (await import(
  new URL('../dist/historyMemory.js', import.meta.url).href
)) as typeof import('../src/historyMemory.js');

/**
 * The figure the report quotes, on few keys: positive, and near what the recorder estimates it
 * holds (the estimate its byte budget is kept on, as the server's usageHistoryMemory test checks
 * at 10,000 keys).
 */
describe('the usage history memory per key', () => {
  it('is positive and within a plausible band of the recorder estimate', async () => {
    const result = await measureHistoryMemory(2_000, 2, 3);
    expect(result).toMatchObject({ ordinaryKeys: 2_000, boundKeys: 2, rounds: 3 });
    const ordinaryEstimate = result.ordinaryEstimatedBytesPerKey ?? Number.NaN;
    const boundEstimate = result.boundEstimatedBytesPerKey ?? Number.NaN;
    // An ordinary key holds a few small entries: hundreds of bytes to a few KB, not a bitset.
    expect(ordinaryEstimate).toBeGreaterThan(500);
    expect(ordinaryEstimate).toBeLessThan(8_000);
    expect(result.ordinaryBytesPerKey).toBeGreaterThan(0.6 * ordinaryEstimate);
    expect(result.ordinaryBytesPerKey).toBeLessThan(1.5 * ordinaryEstimate);
    // A key at its bounds: 3,000 sightings and 1,500,000 positions' bitsets, hundreds of KB.
    expect(boundEstimate).toBeGreaterThan(300_000);
    expect(result.boundBytesPerKey).toBeGreaterThan(0.6 * boundEstimate);
    expect(result.boundBytesPerKey).toBeLessThan(1.6 * boundEstimate);
  }, 120_000);
});
