import { seededRandom } from '@quotes/corpus';
import { describe, expect, it } from 'vitest';
import { IdPositions } from '../../src/data/catalog/idPositions.js';

describe('id positions', () => {
  it('answers exactly what a Map would, through any mix of sets and deletes, growth included', () => {
    const table = new IdPositions();
    const truth = new Map<number, number>();
    const random = seededRandom(11);
    for (let step = 0; step < 200_000; step++) {
      // Ids from a range about ten times the table's live entries, clustered like ranks * 2 + 1.
      const id = Math.floor(random() * 20_000) * 2 + (random() < 0.5 ? 1 : 0);
      const roll = random();
      if (roll < 0.5) {
        const position = Math.floor(random() * 2 ** 32);
        table.set(id, position);
        truth.set(id, position);
      } else if (roll < 0.8) {
        expect(table.delete(id)).toBe(truth.delete(id));
      } else {
        expect(table.get(id)).toBe(truth.get(id) ?? -1);
        expect(table.has(id)).toBe(truth.has(id));
      }
      expect(table.size).toBe(truth.size);
    }
    // About 25,000 live entries at the end: the table grew from 1,024 slots through five doublings.
    expect(truth.size).toBeGreaterThan(20_000);
    for (const [id, position] of truth) expect(table.get(id)).toBe(position);
    for (let id = 0; id < 40_000; id++) if (!truth.has(id)) expect(table.get(id)).toBe(-1);
  });

  it('stays at most half full, and shrinks back when cleared', () => {
    const table = new IdPositions();
    const empty = table.byteLength;
    for (let id = 0; id < 100_000; id++) table.set(id * 3, id);
    expect(table.size).toBe(100_000);
    // 262,144 slots of 8 bytes: 2 MB for 100,000 entries.
    expect(table.byteLength).toBe(262_144 * 8);
    for (let id = 0; id < 100_000; id++) expect(table.get(id * 3)).toBe(id);
    table.clear();
    expect(table.size).toBe(0);
    expect(table.get(3)).toBe(-1);
    expect(table.byteLength).toBe(empty);
  });

  it('refuses an id it cannot hold instead of mistaking it for a free slot', () => {
    const table = new IdPositions();
    expect(() => table.set(-1, 0)).toThrow(RangeError);
    expect(() => table.set(2 ** 31, 0)).toThrow(RangeError);
    expect(() => table.set(1.5, 0)).toThrow(RangeError);
    expect(table.get(-1)).toBe(-1);
    expect(table.delete(-1)).toBe(false);
  });
});
