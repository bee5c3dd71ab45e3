/** Marks a free slot: ids are never negative. */
const free = -1;
/** Slots when empty; doubled whenever more than half are taken, so a probe stays short. */
const initialSlots = 1024;

/**
 * A map from small non-negative integer ids to unsigned 32-bit positions, held in two typed
 * arrays outside V8's heap (open addressing, linear probing, deletion by shifting the run back,
 * so no tombstones build up): TextSlabs' index, kept out of the heap because as a Map it is the
 * heap's largest object under never-seen traffic (QUOTE_READS.md).
 */
export class IdPositions {
  private ids = new Int32Array(initialSlots).fill(free);
  private positions = new Uint32Array(initialSlots);
  private mask = initialSlots - 1;
  private shift = 32 - Math.log2(initialSlots);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Bytes held by the table. */
  get byteLength(): number {
    return this.ids.byteLength + this.positions.byteLength;
  }

  /** The position kept for `id`, or -1. */
  get(id: number): number {
    const slot = this.slotOf(id);
    return slot < 0 ? -1 : (this.positions[slot] as number);
  }

  has(id: number): boolean {
    return this.slotOf(id) >= 0;
  }

  set(id: number, position: number): void {
    if (!Number.isInteger(id) || id < 0 || id > 0x7fffffff)
      throw new RangeError(`an id must be an int32 >= 0, got ${id}`);
    const slot = this.probe(id);
    this.positions[slot] = position;
    if (this.ids[slot] === id) return;
    this.ids[slot] = id;
    this.count++;
    if (this.count * 2 > this.ids.length) this.grow();
  }

  delete(id: number): boolean {
    let emptied = this.slotOf(id);
    if (emptied < 0) return false;
    // Each later entry of the run moves back into the emptied slot unless its home lies
    // (cyclically) after that slot and at or before where it sits now: a lookup must never
    // meet a free slot before reaching it.
    let slot = emptied;
    for (;;) {
      slot = (slot + 1) & this.mask;
      const held = this.ids[slot] as number;
      if (held === free) break;
      const home = this.home(held);
      const stays = emptied <= slot ? emptied < home && home <= slot : emptied < home || home <= slot;
      if (stays) continue;
      this.ids[emptied] = held;
      this.positions[emptied] = this.positions[slot] as number;
      emptied = slot;
    }
    this.ids[emptied] = free;
    this.count--;
    return true;
  }

  clear(): void {
    if (this.ids.length === initialSlots) this.ids.fill(free);
    else this.resize(initialSlots);
    this.count = 0;
  }

  private slotOf(id: number): number {
    if (id < 0) return -1;
    const slot = this.probe(id);
    return this.ids[slot] === id ? slot : -1;
  }

  /** The slot holding `id`, or the free slot where it would go. */
  private probe(id: number): number {
    let slot = this.home(id);
    for (;;) {
      const held = this.ids[slot] as number;
      if (held === id || held === free) return slot;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Fibonacci hashing: the top bits of id times 2^32 / golden ratio, so runs of ids spread out. */
  private home(id: number): number {
    return Math.imul(id, 0x9e3779b1) >>> this.shift;
  }

  private grow(): void {
    const ids = this.ids;
    const positions = this.positions;
    this.resize(ids.length * 2);
    for (let slot = 0; slot < ids.length; slot++) {
      const id = ids[slot] as number;
      if (id === free) continue;
      const target = this.probe(id);
      this.ids[target] = id;
      this.positions[target] = positions[slot] as number;
    }
  }

  private resize(slots: number): void {
    this.ids = new Int32Array(slots).fill(free);
    this.positions = new Uint32Array(slots);
    this.mask = slots - 1;
    this.shift = 32 - Math.log2(slots);
  }
}
