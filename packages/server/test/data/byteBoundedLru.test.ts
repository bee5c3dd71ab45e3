import { describe, expect, it } from 'vitest';
import { ByteBoundedLru } from '../../src/data/byteBoundedLru.js';

describe('byte-bounded LRU', () => {
  const lru = () => new ByteBoundedLru<Int32Array>(100, (value) => value.byteLength);

  it('evicts the least recently used entries to stay within its bytes', () => {
    const cache = lru();
    cache.set('a', new Int32Array(10));
    cache.set('b', new Int32Array(10));
    cache.get('a');
    cache.set('c', new Int32Array(10));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.bytes).toBe(80);
  });

  it('does not keep a value larger than the whole bound', () => {
    const cache = lru();
    cache.set('small', new Int32Array(5));
    cache.set('huge', new Int32Array(100));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('small')).toBeDefined();
  });

  it('accounts replaced and cleared entries', () => {
    const cache = lru();
    cache.set('a', new Int32Array(10));
    cache.set('a', new Int32Array(5));
    expect(cache.bytes).toBe(20);
    cache.clear();
    expect([cache.bytes, cache.size]).toEqual([0, 0]);
  });
});
