/** A count that halves every `halfLifeMs`, read and added to at a time in milliseconds. */
interface Decaying {
  value: number;
  at: number;
}

function decayed(count: Decaying, now: number, halfLifeMs: number): number {
  return count.value * 2 ** (-(now - count.at) / halfLifeMs);
}

function add(count: Decaying, now: number, halfLifeMs: number): void {
  count.value = decayed(count, now, halfLifeMs) + 1;
  count.at = now;
}

export interface ColdSharesOptions {
  /** How fast old calls stop counting (default 1000 ms). */
  readonly halfLifeMs?: number;
  /** Recent calls a key needs before it can lead (default 16): a few calls at a round's start lead nobody. */
  readonly minCalls?: number;
}

/**
 * Which key sends most of the server's recent cold calls: each key's calls and all keys' calls,
 * counted with a decay (half-life 1 s). A key leads when it sent more than half of them, and at
 * least `minCalls`. Keys whose count has decayed below one call are forgotten, so memory follows the
 * keys sending cold calls now.
 */
export class ColdShares {
  private readonly halfLifeMs: number;
  private readonly minCalls: number;
  private readonly byKey = new Map<string, Decaying>();
  private readonly all: Decaying = { value: 0, at: 0 };
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(options: ColdSharesOptions = {}) {
    this.halfLifeMs = options.halfLifeMs ?? 1000;
    this.minCalls = options.minCalls ?? 16;
  }

  /** Notes a cold call of `keyId` at `now`. */
  note(keyId: string, now: number): void {
    let count = this.byKey.get(keyId);
    if (!count) {
      count = { value: 0, at: now };
      this.byKey.set(keyId, count);
    }
    add(count, now, this.halfLifeMs);
    add(this.all, now, this.halfLifeMs);
    this.sweep(now);
  }

  /** Whether `keyId` sent more than half of the recent cold calls, and at least `minCalls` of them. */
  leads(keyId: string, now: number): boolean {
    const count = this.byKey.get(keyId);
    if (!count) return false;
    const own = decayed(count, now, this.halfLifeMs);
    return own >= this.minCalls && own > decayed(this.all, now, this.halfLifeMs) / 2;
  }

  /** Keys counted now (for tests and the sweep's bound). */
  get trackedKeys(): number {
    return this.byKey.size;
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < this.halfLifeMs) return;
    this.sweptAt = now;
    for (const [keyId, count] of this.byKey) if (decayed(count, now, this.halfLifeMs) < 1) this.byKey.delete(keyId);
  }
}
