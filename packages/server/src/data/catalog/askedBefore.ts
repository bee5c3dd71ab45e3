import { LRUCache } from 'lru-cache';

/**
 * Whether a match set or page asked for the first time may be kept while its cache is less than
 * half full, or only from its second ask (decision 0072).
 */
export type FirstAsk = 'kept-in-free-room' | 'kept-from-second-ask';

/** The part of a byte-bounded cache whose room a first ask may take. */
type SizedCache = Pick<LRUCache<string, object>, 'calculatedSize' | 'maxSize'>;

/**
 * The keys asked once, so a cache keeps a thing from its second ask: one asked once is built and
 * forgotten, and a flood of one-off asks evicts nothing kept. Only the keys are held, the most
 * recent 8,192.
 */
export class AskedBefore {
  private readonly once = new LRUCache<string, true>({ max: 8192 });

  /**
   * Whether `cache` keeps what is asked under `key` (up to `bytes`): from its second ask, or at
   * its first while the cache has free room and `firstAsk` allows it. A first ask is noted.
   */
  keeps(key: string, firstAsk: FirstAsk, cache: SizedCache, bytes: number): boolean {
    return this.again(key) || (firstAsk === 'kept-in-free-room' && hasFreeRoom(cache, bytes));
  }

  /** Whether `key` was asked before; a first ask is noted. */
  again(key: string): boolean {
    if (this.once.has(key)) return true;
    this.once.set(key, true);
    return false;
  }

  clear(): void {
    this.once.clear();
  }
}

/**
 * Whether `cache` keeps an entry of up to `bytes` and stays at most half full: room no kept entry
 * needs, so a first ask may take it (a start's first calls) without evicting anything.
 */
function hasFreeRoom(cache: SizedCache, bytes: number): boolean {
  return cache.calculatedSize + bytes <= cache.maxSize / 2;
}
