/**
 * A small seeded PRNG (sfc32, seeded through splitmix32). Pure 32-bit integer arithmetic, so the
 * same seed gives the same sequence on every platform and Node version: the corpus, and so its
 * ids, depend on nothing but the seed.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let state = seed >>> 0;
    const splitmix = () => {
      state = (state + 0x9e3779b9) | 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = splitmix();
    this.b = splitmix();
    this.c = splitmix();
    this.d = splitmix();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(values: readonly T[]): T {
    if (values.length === 0) throw new Error('pick from an empty list');
    return values[this.int(values.length)]!;
  }

  /** A standard normal deviate (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/** The same generator as a bare function, for code that wants `() => number` (tests, bench traffic). */
export function seededRandom(seed: number): () => number {
  const random = new Random(seed);
  return () => random.next();
}

/** Picks among values with fixed weights in O(log n), for the tables used on every quote. */
export class WeightedTable<T> {
  private readonly values: T[] = [];
  private readonly cumulative: number[] = [];
  private total = 0;

  constructor(entries: Iterable<readonly [T, number]>) {
    for (const [value, weight] of entries) {
      if (!(weight > 0)) continue;
      this.total += weight;
      this.values.push(value);
      this.cumulative.push(this.total);
    }
    if (this.values.length === 0) throw new Error('a weighted table needs at least one positive weight');
  }

  get size(): number {
    return this.values.length;
  }

  pick(random: Random): T {
    const target = random.next() * this.total;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.cumulative[middle]! > target) high = middle;
      else low = middle + 1;
    }
    return this.values[low]!;
  }
}

/** A fast 32-bit string hash (FNV-1a), for the generator's uniqueness check. */
export function hash32(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
