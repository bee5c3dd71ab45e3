import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { seededRandom } from '@quotes/corpus';
import { UsageHistory } from '@quotes/server';
import type pg from 'pg';

/**
 * The usage history's memory per active key between two flushes, in this process: the heap and
 * ArrayBuffers a recorder holds after many keys' calls, over the key count. An ordinary key: 20
 * served random quotes of a 150,000-quote corpus (their coverage bits), one kind of refusal, one
 * client network, one browser origin, five filter pages. A key at the bounds: every distinct
 * network, origin and page it may hold per flush (1,000 each, 200-character origins), past which
 * new values are not kept, and every position of a 1,500,000-quote corpus covered.
 */
export interface HistoryMemoryResult {
  ordinaryKeys: number;
  ordinaryBytesPerKey: number;
  boundKeys: number;
  boundBytesPerKey: number;
}

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** A pool that never answers a flush: the measurement stops before one. */
const idlePool = { query: async () => ({ rows: [] }) } as unknown as pg.Pool;

/** The JS heap and the ArrayBuffers outside it (the coverage bitsets' bytes live there). */
function heldBytes(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

function heapAfter(fill: (history: UsageHistory) => void): number {
  collect();
  const before = heldBytes();
  // No budget: what a key holds, not what a flush would take away.
  const history = new UsageHistory(idlePool, 3_600_000, { maxBytes: Number.POSITIVE_INFINITY });
  fill(history);
  collect();
  const used = heldBytes() - before;
  // Kept alive until measured.
  void history.close();
  return used;
}

export function measureHistoryMemory(ordinaryKeys = 10_000, boundKeys = 20): HistoryMemoryResult {
  const now = Date.UTC(2026, 10, 26, 10, 30);
  const random = seededRandom(20261126);
  const allPositions = Array.from({ length: 1_500_000 }, (_, rank) => rank);
  const ordinary = heapAfter((history) => {
    for (let key = 0; key < ordinaryKeys; key++) {
      const id = `k_${key.toString(36).padStart(12, '0')}`;
      for (let call = 0; call < 20; call++) {
        history.record(id, 'served', now + call);
        history.cover(id, [Math.floor(random() * 150_000)], now + call);
      }
      history.record(id, 'rate-limited', now);
      history.sight(id, 'network', `10.${key % 250}.${key % 200}.0/24`, now);
      history.sight(id, 'origin', `https://app-${key}.example`, now);
      for (let page = 0; page < 5; page++) history.sight(id, 'page', `category=love|${page * 50}|50`, now);
    }
  });
  const bound = heapAfter((history) => {
    for (let key = 0; key < boundKeys; key++) {
      const id = `k_${key.toString(36).padStart(12, '0')}`;
      for (const outcome of ['served', 'rate-limited', 'allowance-exhausted', 'origin-not-allowed', 'not-found'])
        history.record(id, outcome, now);
      history.cover(id, allPositions, now);
      for (let value = 0; value < 1200; value++) {
        history.sight(id, 'network', `10.${value >> 8}.${value & 255}.0/24`, now);
        history.sight(id, 'origin', `https://${String(value).padStart(6, '0')}.${'o'.repeat(180)}.example`, now);
        history.sight(id, 'page', `category=love&mood=hopeful&era=modern|${value * 100}|100`, now);
      }
    }
  });
  return {
    ordinaryKeys,
    ordinaryBytesPerKey: Math.round(ordinary / ordinaryKeys),
    boundKeys,
    boundBytesPerKey: Math.round(bound / boundKeys),
  };
}
