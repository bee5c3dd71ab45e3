import { LRUCache } from 'lru-cache';

/**
 * The keys asked once, so a cache keeps a thing from its second ask: one asked once is built and
 * forgotten, and a flood of one-off asks evicts nothing kept. Only the keys are held, the most
 * recent 8,192.
 */
export class AskedBefore {
  private readonly once = new LRUCache<string, true>({ max: 8192 });

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
export function hasFreeRoom(
  cache: Pick<LRUCache<string, object>, 'calculatedSize' | 'maxSize'>,
  bytes: number,
): boolean {
  return cache.calculatedSize + bytes <= cache.maxSize / 2;
}
