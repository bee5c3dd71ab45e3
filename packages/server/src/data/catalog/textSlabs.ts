import { IdPositions } from './idPositions.js';

/** Bytes before each text in a slab: its UTF-8 length. */
const header = 4;

/**
 * UTF-8 texts by a small non-negative integer id, written one after another into a ring of
 * large slabs and bounded by their total bytes. When the ring is full the oldest slab is emptied
 * and written again, forgetting its texts; a text read (keep) from the slab that is to be emptied
 * next is copied to the newest one, so what is read often stays (a segmented FIFO, close to LRU).
 *
 * Why not one Buffer per text in an LRU: at 32 MB that is about 100,000 Buffers, each a heap
 * object with its own malloc'd backing store. Every new text is then a survivor for the young
 * generation to copy and promote, and under never-seen traffic (100 new texts per page) the
 * scavenges and mark-compacts make the tail of the latency; the backing stores' allocator
 * overhead is resident memory outside the heap. Here the texts are in a few large Buffers, and
 * the only per-text state is one entry in a table of typed arrays (idPositions.ts).
 */
export class TextSlabs {
  private readonly slabs: Buffer[] = [];
  /** The ids written into each slab, to forget them when it is emptied. */
  private readonly slabIds: Int32Array[] = [];
  private readonly slabIdCount: number[] = [];
  private readonly where = new IdPositions();
  private readonly slabCount: number;
  private readonly slabShift: number;
  private readonly slabMask: number;
  private current = 0;
  private used = 0;

  constructor(maxBytes: number, slabBytes = 256 * 1024) {
    this.slabShift = Math.ceil(Math.log2(Math.max(4096, slabBytes)));
    const size = 2 ** this.slabShift;
    this.slabMask = size - 1;
    // Two at least: one written, one that can be emptied. Zero bytes keeps nothing.
    this.slabCount = maxBytes <= 0 ? 0 : Math.max(2, Math.floor(maxBytes / size));
  }

  get slabBytes(): number {
    return this.slabMask + 1;
  }

  /** Bytes held by the slabs allocated so far. */
  get byteLength(): number {
    return this.slabs.length * this.slabBytes;
  }

  get size(): number {
    return this.where.size;
  }

  /**
   * The bytes kept under `id`, as a view into its slab, or undefined. The view is valid only
   * until the next set, keep or clear: copy it out before any of them.
   */
  peek(id: number): Buffer | undefined {
    const at = this.where.get(id);
    if (at < 0) return undefined;
    const buffer = this.slabs[at >>> this.slabShift] as Buffer;
    const offset = at & this.slabMask;
    return buffer.subarray(offset + header, offset + header + buffer.readUInt32LE(offset));
  }

  has(id: number): boolean {
    return this.where.has(id);
  }

  /** The byte length of the text kept under `id`, or -1. */
  lengthOf(id: number): number {
    const at = this.where.get(id);
    if (at < 0) return -1;
    return (this.slabs[at >>> this.slabShift] as Buffer).readUInt32LE(at & this.slabMask);
  }

  /** Copies the text kept under `id` into `target` at `offset`; returns the bytes copied (0 when not kept). */
  copyTo(id: number, target: Buffer, offset: number): number {
    const at = this.where.get(id);
    if (at < 0) return 0;
    const buffer = this.slabs[at >>> this.slabShift] as Buffer;
    const start = (at & this.slabMask) + header;
    return buffer.copy(target, offset, start, start + buffer.readUInt32LE(start - header));
  }

  /** Keeps `text` under `id` (nothing when it is larger than a slab, or the bound is zero). */
  set(id: number, text: string): void {
    const most = header + text.length * 3;
    if (this.slabCount === 0 || most > this.slabBytes) return;
    this.where.delete(id);
    const buffer = this.room(most);
    const offset = this.used;
    const length = buffer.write(text, offset + header, 'utf8');
    buffer.writeUInt32LE(length, offset);
    this.record(id, offset, header + length);
  }

  /** Marks `id` as read: a text in the slab next in line to be emptied is copied to the newest one. */
  keep(id: number): void {
    const at = this.where.get(id);
    if (at < 0 || this.slabCount < 3) return;
    const slab = at >>> this.slabShift;
    if (slab !== (this.current + 1) % this.slabCount) return;
    const source = this.slabs[slab] as Buffer;
    const offset = at & this.slabMask;
    const bytes = header + source.readUInt32LE(offset);
    this.where.delete(id);
    const buffer = this.room(bytes);
    source.copy(buffer, this.used, offset, offset + bytes);
    this.record(id, this.used, bytes);
  }

  clear(): void {
    this.where.clear();
    this.slabIdCount.fill(0);
    this.current = 0;
    this.used = 0;
  }

  private record(id: number, offset: number, bytes: number): void {
    // Unsigned: at the largest QUOTE_CACHE_MB the slab number reaches the top bit.
    this.where.set(id, ((this.current << this.slabShift) | offset) >>> 0);
    const count = this.slabIdCount[this.current] ?? 0;
    let ids = this.slabIds[this.current] as Int32Array;
    if (count === ids.length) {
      const grown = new Int32Array(ids.length * 2);
      grown.set(ids);
      this.slabIds[this.current] = grown;
      ids = grown;
    }
    ids[count] = id;
    this.slabIdCount[this.current] = count + 1;
    this.used = offset + bytes;
  }

  /** The slab to write `bytes` into at `this.used`, moving to the next (emptied) one when the current is full. */
  private room(bytes: number): Buffer {
    if (this.slabs.length === 0) this.allocate(0);
    if (this.used + bytes > this.slabBytes) {
      this.current = (this.current + 1) % this.slabCount;
      this.used = 0;
      if (this.current === this.slabs.length) this.allocate(this.current);
      else this.empty(this.current);
    }
    return this.slabs[this.current] as Buffer;
  }

  private allocate(slab: number): void {
    this.slabs[slab] = Buffer.allocUnsafeSlow(this.slabBytes);
    this.slabIds[slab] = new Int32Array(1024);
    this.slabIdCount[slab] = 0;
  }

  /** Forgets the texts written into `slab`, unless they have been written again elsewhere since. */
  private empty(slab: number): void {
    const ids = this.slabIds[slab] as Int32Array;
    const count = this.slabIdCount[slab] ?? 0;
    for (let i = 0; i < count; i++) {
      const id = ids[i] as number;
      const at = this.where.get(id);
      if (at >= 0 && at >>> this.slabShift === slab) this.where.delete(id);
    }
    this.slabIdCount[slab] = 0;
  }
}
