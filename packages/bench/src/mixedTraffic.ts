import { taxonomy } from '@quotes/contract';
import { seededRandom } from '@quotes/corpus';

function weighted<T>(choices: ReadonlyArray<readonly [T, number]>, random: () => number): T {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  let point = random() * total;
  for (const [value, weight] of choices) {
    point -= weight;
    if (point < 0) return value;
  }
  return choices[choices.length - 1]?.[0] as T;
}

/** Index 0..n-1 with Zipf-like popularity (weight 1/(i+1)^s): a few hot, a long tail. */
function zipfSampler(n: number, s: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let index = 0; index < n; index++) {
    sum += 1 / (index + 1) ** s;
    cumulative[index] = sum;
  }
  return () => {
    const point = random() * sum;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] as number) < point) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/** What a client types: a whole category name, a word of one, or a fragment; the same for moods. */
function categoryTexts(): string[] {
  const words = new Set<string>();
  for (const category of taxonomy.categories) {
    words.add(category);
    for (const word of category.split(/[^A-Za-z]+/)) if (word.length >= 4) words.add(word.toLowerCase());
  }
  return [...words];
}

/**
 * One filtered call as a client would send it: a query string with 0-4 filters (category and
 * mood most often, each value's popularity long-tailed), and for a list a page size and an
 * offset (mostly the first pages, sometimes deep). Values are percent-encoded once here, so
 * the path is byte for byte what reaches both the server and the floor.
 */
function callOf(random: () => number, pickCategory: () => number, pickMood: () => number): string {
  const categories = categoryTexts();
  const query: string[] = [];
  const add = (name: string, value: string) => query.push(`${name}=${encodeURIComponent(value)}`);
  if (random() < 0.75) add('category', categories[pickCategory() % categories.length] as string);
  if (random() < 0.5) add('mood', taxonomy.moods[pickMood() % taxonomy.moods.length] as string);
  if (random() < 0.3) add('era', taxonomy.eras[Math.floor(random() * taxonomy.eras.length)] as string);
  if (random() < 0.25) add('length', taxonomy.lengths[Math.floor(random() * taxonomy.lengths.length)] as string);
  if (random() < 0.1)
    add('faith', taxonomy.faithTraditions[Math.floor(random() * taxonomy.faithTraditions.length)] as string);
  if (random() < 0.45) return `/v1/quotes-random${query.length > 0 ? `?${query.join('&')}` : ''}`;
  const limit = weighted(
    [
      [10, 3],
      [20, 4],
      [25, 2],
      [50, 2],
      [100, 1],
    ],
    random,
  );
  const page = weighted<() => number>(
    [
      [() => 0, 6],
      [() => 1 + Math.floor(random() * 4), 3],
      [() => 5 + Math.floor(random() * 50), 1],
    ],
    random,
  )();
  query.push(`limit=${limit}`, `offset=${page * limit}`);
  return `/v1/quotes-filter?${query.join('&')}`;
}

export interface MixedTraffic {
  /** Every distinct URL (the floor needs an answer for each). */
  distinct: string[];
  /** The order they are sent in: drawn from `distinct` with long-tailed popularity. */
  sequence: string[];
}

/**
 * `distinct` different calls, and a sequence of `length` requests drawn among them by
 * popularity (Zipf, s = 1.1): the first few are asked often, most only once or never.
 */
export function mixedTraffic(seed: number, distinct: number, length: number): MixedTraffic {
  const random = seededRandom(seed);
  const pickCategory = zipfSampler(200, 1.0, random);
  const pickMood = zipfSampler(taxonomy.moods.length, 0.8, random);
  const urls = new Set<string>();
  for (let attempt = 0; urls.size < distinct && attempt < distinct * 20; attempt++)
    urls.add(callOf(random, pickCategory, pickMood));
  const list = [...urls];
  const pickUrl = zipfSampler(list.length, 1.1, random);
  return { distinct: list, sequence: Array.from({ length }, () => list[pickUrl()] as string) };
}

/** Combinations no caller has sent before: a category word with a mood, an era and a length, each once. */
export function neverSeenCombinations(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  const texts = categoryTexts();
  const urls = new Set<string>();
  for (let attempt = 0; urls.size < count && attempt < count * 50; attempt++) {
    const query = [
      `category=${encodeURIComponent(texts[Math.floor(random() * texts.length)] as string)}`,
      `mood=${encodeURIComponent(taxonomy.moods[Math.floor(random() * taxonomy.moods.length)] as string)}`,
      `era=${encodeURIComponent(taxonomy.eras[Math.floor(random() * taxonomy.eras.length)] as string)}`,
    ];
    if (random() < 0.5)
      query.push(`length=${taxonomy.lengths[Math.floor(random() * taxonomy.lengths.length)] as string}`);
    const list = random() < 0.6;
    if (list)
      query.push(
        `limit=${weighted(
          [
            [20, 1],
            [50, 1],
            [100, 1],
          ],
          random,
        )}`,
        `offset=${Math.floor(random() * 3) * 20}`,
      );
    urls.add(`/v1/${list ? 'quotes-filter' : 'quotes-random'}?${query.join('&')}`);
  }
  return [...urls];
}
