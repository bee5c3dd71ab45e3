/** A count that halves every `halfLifeMs`, read and added to at a time in milliseconds. */
interface Decaying {
  value: number;
  at: number;
}

function decayed(count: Decaying, now: number): number {
  return count.value * 2 ** (-(now - count.at) / halfLifeMs);
}

function add(count: Decaying, now: number): void {
  count.value = decayed(count, now) + 1;
  count.at = now;
}

/** How fast old calls stop counting. */
const halfLifeMs = 1000;
/** Recent calls a key needs before it can lead: a few calls at a round's start lead nobody. */
const minCalls = 16;

/**
 * Which key sends most of the server's recent cold calls: each key's calls and all keys' calls,
 * counted with a decay (half-life 1 s). A key leads when it sent more than half of them, and at
 * least 16. Keys whose count has decayed below one call are forgotten, so memory follows the
 * keys sending cold calls now.
 */
export class ColdShares {
  private readonly byKey = new Map<string, Decaying>();
  private readonly all: Decaying = { value: 0, at: 0 };
  private sweptAt = Number.NEGATIVE_INFINITY;

  /** Notes a cold call of `keyId` at `now`. */
  note(keyId: string, now: number): void {
    let count = this.byKey.get(keyId);
    if (!count) {
      count = { value: 0, at: now };
      this.byKey.set(keyId, count);
    }
    add(count, now);
    add(this.all, now);
    this.sweep(now);
  }

  /** Whether `keyId` sent more than half of the recent cold calls, and at least 16 of them. */
  leads(keyId: string, now: number): boolean {
    const count = this.byKey.get(keyId);
    if (!count) return false;
    const own = decayed(count, now);
    return own >= minCalls && own > decayed(this.all, now) / 2;
  }

  /** Keys counted now (for tests and the sweep's bound). */
  get trackedKeys(): number {
    return this.byKey.size;
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < halfLifeMs) return;
    this.sweptAt = now;
    for (const [keyId, count] of this.byKey) if (decayed(count, now) < 1) this.byKey.delete(keyId);
  }
}
