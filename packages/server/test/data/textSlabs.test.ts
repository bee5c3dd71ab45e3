import { describe, expect, it } from 'vitest';
import { TextSlabs } from '../../src/data/catalog/textSlabs.js';

const text = (id: number, length = 100) => `«${id}» ${'é☃x'.repeat(length)}`.slice(0, length);

describe('text slabs', () => {
  it('gives back the UTF-8 bytes of what was kept, and nothing for what was not', () => {
    const slabs = new TextSlabs(64 * 1024, 4096);
    slabs.set(1, 'grief ☃ “quoted” 𝄞');
    expect(slabs.peek(1)?.toString('utf8')).toBe('grief ☃ “quoted” 𝄞');
    expect(slabs.lengthOf(1)).toBe(Buffer.byteLength('grief ☃ “quoted” 𝄞'));
    const target = Buffer.alloc(64);
    expect(slabs.copyTo(1, target, 3)).toBe(slabs.lengthOf(1));
    expect(target.subarray(3, 3 + slabs.lengthOf(1)).toString()).toBe('grief ☃ “quoted” 𝄞');
    expect(slabs.peek(2)).toBeUndefined();
    expect(slabs.lengthOf(2)).toBe(-1);
    expect(slabs.copyTo(2, target, 0)).toBe(0);
  });

  it('stays within its bytes, forgetting the oldest texts first', () => {
    const slabs = new TextSlabs(4 * 4096, 4096);
    for (let id = 0; id < 2000; id++) slabs.set(id, text(id));
    expect(slabs.byteLength).toBe(4 * 4096);
    expect(slabs.peek(0)).toBeUndefined();
    expect(slabs.peek(1999)?.toString()).toBe(text(1999));
    expect(slabs.size).toBeLessThan((4 * 4096) / 100);
    expect(slabs.size).toBeGreaterThan(4096 / 300);
  });

  it('keeps a text that is read while everything else passes through', () => {
    const slabs = new TextSlabs(8 * 4096, 4096);
    slabs.set(5000, 'the one read often');
    for (let id = 0; id < 5000; id++) {
      slabs.set(id, text(id));
      slabs.keep(5000);
    }
    expect(slabs.peek(5000)?.toString()).toBe('the one read often');
  });

  it('keeps nothing larger than a slab, and nothing at all with no bytes', () => {
    const slabs = new TextSlabs(8 * 4096, 4096);
    slabs.set(1, 'x'.repeat(5000));
    expect(slabs.peek(1)).toBeUndefined();
    const none = new TextSlabs(0);
    none.set(1, 'a');
    none.keep(1);
    expect(none.peek(1)).toBeUndefined();
    expect(none.byteLength).toBe(0);
  });

  it('never answers with bytes other than the last text set for an id, through any mix of writes and reads', () => {
    const slabs = new TextSlabs(6 * 4096, 4096);
    const truth = new Map<number, string>();
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    let hits = 0;
    for (let step = 0; step < 50_000; step++) {
      const id = Math.floor(random() * 400);
      const roll = random();
      if (roll < 0.4) {
        const value = text(id * 7 + step, 20 + Math.floor(random() * 400));
        slabs.set(id, value);
        truth.set(id, value);
      } else if (roll < 0.7) {
        slabs.keep(id);
      } else {
        const kept = slabs.peek(id);
        if (kept !== undefined) {
          hits++;
          expect(kept.toString()).toBe(truth.get(id));
        }
      }
    }
    expect(hits).toBeGreaterThan(1000);
    slabs.clear();
    expect(slabs.size).toBe(0);
    expect(slabs.peek(1)).toBeUndefined();
  });
});
