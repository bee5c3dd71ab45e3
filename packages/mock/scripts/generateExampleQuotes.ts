// The mock's example quotes: chosen from the server's default corpus (the corpus generator, its
// default seed and size), so the mock's quotes are quotes the server serves, with the same ids and
// in the same order. `npm run examples -w @quotes/mock` writes src/generated/exampleQuotes.gen.json;
// test/exampleQuotes.test.ts fails when that file is not what this script writes.
import { writeFileSync } from 'node:fs';
import { lengthOfText, type Quote, rules } from '@quotes/contract';
import { type CorpusRow, defaultCorpusSeed, defaultCorpusSize, generateCorpus, quoteId } from '@quotes/corpus';
import { defaultLimit } from '@quotes/server/data-free-checks';

/** A share of the corpus from which a pair of filter values is common enough to want pages of its own. */
export const commonPairShare = 0.002;
/** Two pages at the default limit. */
export const examplesWanted = defaultLimit + 1;

/** The filter values a quote answers to, as `filter=value`, in the contract's order of filters. */
function filterValues(row: CorpusRow): string[][] {
  const byFilter: Record<string, string[]> = {
    category: [row.category],
    mood: row.moods,
    length: [lengthOfText(row.text)],
    era: [row.era],
    faith: row.faith_tradition === null ? [] : [row.faith_tradition],
  };
  return rules.filters.map((filter) => (byFilter[filter.name] ?? []).map((value) => `${filter.name}=${value}`));
}

/** Every single value and every pair of values of two filters that a request fitting the quote can ask for. */
function combinations(row: CorpusRow): string[] {
  const values = filterValues(row);
  const found = values.flat();
  for (let first = 0; first < values.length; first++) {
    for (let second = first + 1; second < values.length; second++) {
      for (const a of values[first]!) for (const b of values[second]!) found.push(`${a}&${b}`);
    }
  }
  return found;
}

/** A max-heap of [gain, position]: the largest gain first, the better-ranked quote on a tie. */
class GainHeap {
  private readonly items: Array<[number, number]> = [];
  private before(a: [number, number], b: [number, number]): boolean {
    return a[0] > b[0] || (a[0] === b[0] && a[1] < b[1]);
  }
  get size(): number {
    return this.items.length;
  }
  peek(): [number, number] | undefined {
    return this.items[0];
  }
  push(item: [number, number]): void {
    const items = this.items;
    items.push(item);
    for (let at = items.length - 1; at > 0; ) {
      const parent = (at - 1) >> 1;
      if (!this.before(items[at]!, items[parent]!)) break;
      [items[at], items[parent]] = [items[parent]!, items[at]!];
      at = parent;
    }
  }
  pop(): [number, number] | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    for (let at = 0; ; ) {
      const left = 2 * at + 1;
      let best = at;
      if (left < items.length && this.before(items[left]!, items[best]!)) best = left;
      if (left + 1 < items.length && this.before(items[left + 1]!, items[best]!)) best = left + 1;
      if (best === at) break;
      [items[at], items[best]] = [items[best]!, items[at]!];
      at = best;
    }
    return top;
  }
}

/**
 * The fewest quotes, near enough, that give every filter value alone, and every pair of values
 * held by at least `commonPairShare` of the corpus, `examplesWanted` fitting examples (all there
 * are when the corpus has fewer): a greedy cover (lazy, with a heap), ties to the better rank.
 * Rarer combinations are left to the mock's adapted quotes. Returned in the server's rank order.
 */
export function selectExampleQuotes(): Quote[] {
  const rows = [...generateCorpus({ size: defaultCorpusSize, seed: defaultCorpusSeed })];
  // Each combination by a number of its own, the counts in arrays: Maps keyed by the combinations'
  // text made the selection take most of half a minute.
  const numbers = new Map<string, number>();
  const names: string[] = [];
  const combos = rows.map((row) =>
    Int32Array.from(combinations(row), (combo) => {
      let number = numbers.get(combo);
      if (number === undefined) {
        number = names.push(combo) - 1;
        numbers.set(combo, number);
      }
      return number;
    }),
  );
  const inCorpus = new Int32Array(names.length);
  for (const list of combos) for (const combo of list) inCorpus[combo]! += 1;
  // How many examples each combination wants; 0 for one left to the adapted quotes.
  const wanted = new Int32Array(names.length);
  names.forEach((combo, number) => {
    const count = inCorpus[number]!;
    if (!combo.includes('&') || count / rows.length >= commonPairShare)
      wanted[number] = Math.min(count, examplesWanted);
  });
  const held = new Int32Array(names.length);
  const gain = (position: number): number => {
    let sum = 0;
    for (const combo of combos[position]!) {
      const want = wanted[combo]!;
      if (want > 0) sum += Math.max(0, want - held[combo]!) / want;
    }
    return sum;
  };
  const heap = new GainHeap();
  for (let position = 0; position < rows.length; position++) {
    const first = gain(position);
    if (first > 0) heap.push([first, position]);
  }
  const chosen: number[] = [];
  for (let next = heap.pop(); next !== undefined; next = heap.pop()) {
    const position = next[1];
    const now = gain(position);
    if (now <= 0) continue;
    const runnerUp = heap.peek();
    if (runnerUp && now < runnerUp[0]) {
      heap.push([now, position]);
      continue;
    }
    chosen.push(position);
    for (const combo of combos[position]!) held[combo]! += 1;
  }
  const quotes = chosen.map((position) => {
    const row = rows[position]!;
    return {
      quote: {
        id: quoteId(row.text, row.author),
        text: row.text,
        author: row.author,
        category: row.category,
        secondary_category: row.secondary_category,
        mood: row.moods.join(','),
        era: row.era,
        length: lengthOfText(row.text),
        faith_tradition: row.faith_tradition,
      } as Quote,
      score: row.score,
    };
  });
  // The server's rank: score descending, then id by code point.
  quotes.sort((a, b) => b.score - a.score || (a.quote.id < b.quote.id ? -1 : a.quote.id > b.quote.id ? 1 : 0));
  return quotes.map(({ quote }) => quote);
}

/** The generated file's text: one quote a line, so a change reads as a diff of quotes. */
export function exampleQuotesFileText(quotes: readonly Quote[]): string {
  return `[\n${quotes.map((quote) => JSON.stringify(quote)).join(',\n')}\n]\n`;
}

export const exampleQuotesFile = new URL('../src/generated/exampleQuotes.gen.json', import.meta.url);

if (import.meta.main) {
  const quotes = selectExampleQuotes();
  writeFileSync(exampleQuotesFile, exampleQuotesFileText(quotes));
  console.log(`${quotes.length} example quotes written to ${exampleQuotesFile.pathname}`);
}
