/**
 * A least-recently-used map bounded by the bytes its values hold rather than by their number:
 * match sets range from a few bytes to megabytes.
 */
export class ByteBoundedLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private heldBytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Map keeps insertion order: re-inserting marks the entry most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores the value unless it alone exceeds the bound; evicts the least recently used first. */
  set(key: string, value: V): void {
    const bytes = this.sizeOf(value);
    this.delete(key);
    if (bytes > this.maxBytes) return;
    for (const [oldestKey] of this.entries) {
      if (this.heldBytes + bytes <= this.maxBytes) break;
      this.delete(oldestKey);
    }
    this.entries.set(key, { value, bytes });
    this.heldBytes += bytes;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.heldBytes -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.heldBytes = 0;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  get size(): number {
    return this.entries.size;
  }
}
