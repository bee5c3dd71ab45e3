import { taxonomy } from '@quotes/contract';
import { TaxonomyIndex, tagCodeLayout } from '@quotes/server/taxonomy-index';
import { RoaringBitmap32, roaringLibraryInitialize } from 'roaring-wasm';
import { seededRandom } from '@quotes/corpus';

/**
 * The taxonomy index's own cost, in this process, on a synthetic corpus tagged like the
 * generator's: plain Uint32Array bitsets (what the server uses) against Roaring bitmaps
 * (roaring-wasm, CRoaring compiled to WebAssembly) doing the same work: combine a filter, count
 * it, pick the k-th member, cut a 50-quote page at an offset.
 */
export interface IndexMicroResult {
  size: number;
  combinations: number;
  /** Per filter: combine + count + one random pick + one page of 50. */
  bitsetMicros: number;
  roaringMicros: number;
  bitsetBytes: number;
  roaringBytes: number;
  /** Building the plain bitsets from (rank, code) pairs, as the server does on a corpus change. */
  bitsetBuildMs: number;
}

interface Filter {
  categories: string[] | null;
  moods: string[] | null;
  length: string | null;
  era: string | null;
  faith: string | null;
  given: never[];
}

function syntheticPairs(size: number, random: () => number): Buffer {
  const layout = tagCodeLayout();
  const pairs = Buffer.alloc(size * 8);
  const pick = (n: number) => Math.floor(random() * n);
  for (let rank = 0; rank < size; rank++) {
    let code = 0;
    for (const field of layout.single) {
      const none = field.parameter === 'faith' && random() < 0.7;
      code |= (none ? 0 : pick(field.values.length) + 1) << field.shift;
    }
    code |= (1 << pick(layout.moods.length)) << layout.moodsShift;
    if (random() < 0.4) code |= (1 << pick(layout.moods.length)) << layout.moodsShift;
    pairs.writeInt32BE(rank, rank * 8);
    pairs.writeInt32BE(code, rank * 8 + 4);
  }
  return pairs;
}

function filters(count: number, random: () => number): Filter[] {
  const some = <T>(values: readonly T[], most: number) => {
    const chosen = new Set<T>();
    const n = 1 + Math.floor(random() * most);
    while (chosen.size < n) chosen.add(values[Math.floor(random() * values.length)] as T);
    return [...chosen].sort();
  };
  return Array.from({ length: count }, () => ({
    categories: random() < 0.8 ? some(taxonomy.categories, random() < 0.2 ? 12 : 2) : null,
    moods: random() < 0.6 ? some(taxonomy.moods, 3) : null,
    length: random() < 0.3 ? (taxonomy.lengths[Math.floor(random() * 3)] as string) : null,
    era: random() < 0.4 ? (taxonomy.eras[Math.floor(random() * taxonomy.eras.length)] as string) : null,
    faith: null,
    given: [],
  }));
}

function time(work: () => void, rounds: number): number {
  work();
  const started = performance.now();
  for (let round = 0; round < rounds; round++) work();
  return (performance.now() - started) / rounds;
}

export async function measureIndex(size: number, seed = 20261123): Promise<IndexMicroResult> {
  const random = seededRandom(seed);
  const pairs = syntheticPairs(size, random);
  const layout = tagCodeLayout();
  const buildStarted = performance.now();
  const index = TaxonomyIndex.fromPairs(1, pairs, layout, { pairLists: false });
  const bitsetBuildMs = performance.now() - buildStarted;
  const cases = filters(200, random);
  let sink = 0;

  const bitsetMs = time(() => {
    for (const filter of cases) {
      const set = index.matching(filter);
      if (set.size === 0) continue;
      sink += set.select(Math.floor(random() * set.size)) ?? 0;
      sink += set.slice(Math.floor(set.size / 2), 50).length;
    }
  }, 3);

  await roaringLibraryInitialize();
  const bitmaps = new Map<string, RoaringBitmap32>();
  const bitmapOf = (key: string) => {
    let bitmap = bitmaps.get(key);
    if (!bitmap) {
      bitmap = new RoaringBitmap32();
      bitmaps.set(key, bitmap);
    }
    return bitmap;
  };
  for (let row = 0; row < size; row++) {
    const rank = pairs.readInt32BE(row * 8);
    const code = pairs.readInt32BE(row * 8 + 4);
    for (const field of layout.single) {
      const position = (code >>> field.shift) & ((1 << field.width) - 1);
      if (position > 0) bitmapOf(`${field.parameter}:${field.values[position - 1]}`).add(rank);
    }
    for (let mood = 0; mood < layout.moods.length; mood++)
      if ((code >>> (layout.moodsShift + mood)) & 1) bitmapOf(`mood:${layout.moods[mood]}`).add(rank);
  }
  for (const bitmap of bitmaps.values()) bitmap.runOptimize();
  const roaringMs = time(() => {
    for (const filter of cases) {
      const parameters: string[][] = [];
      if (filter.categories) parameters.push(filter.categories.map((value) => `category:${value}`));
      if (filter.moods) parameters.push(filter.moods.map((value) => `mood:${value}`));
      if (filter.length) parameters.push([`length:${filter.length}`]);
      if (filter.era) parameters.push([`era:${filter.era}`]);
      const unions = parameters.map((keys) => {
        const union = new RoaringBitmap32();
        for (const key of keys) union.orInPlace(bitmapOf(key));
        return union;
      });
      const result = unions[0] ?? new RoaringBitmap32();
      for (const other of unions.slice(1)) {
        result.andInPlace(other);
        other.dispose();
      }
      const count = result.size;
      if (count > 0) {
        sink += result.select(Math.floor(random() * count));
        const start = result.select(Math.floor(count / 2));
        const end = result.select(Math.min(count - 1, Math.floor(count / 2) + 49));
        sink += result.rangeUint32Array(start, end + 1).length;
      }
      result.dispose();
    }
  }, 3);
  let roaringBytes = 0;
  for (const bitmap of bitmaps.values()) {
    roaringBytes += bitmap.getSerializationSizeInBytes('croaring');
    bitmap.dispose();
  }
  if (sink === -1) process.stdout.write('');
  return {
    size,
    combinations: cases.length,
    bitsetMicros: Math.round((bitsetMs / cases.length) * 1000),
    roaringMicros: Math.round((roaringMs / cases.length) * 1000),
    bitsetBytes: index.byteLength,
    roaringBytes,
    bitsetBuildMs: Math.round(bitsetBuildMs),
  };
}
