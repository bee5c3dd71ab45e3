import { taxonomy } from '@quotes/contract';
import type { CorpusRow } from '@quotes/corpus';
import { replaceCorpus } from '@quotes/corpus';
import type { DatabaseHandle } from '@quotes/database';

const filler = ' and the evening keeps its counsel while the river goes on carrying the light downstream';

function textOf(index: number, category: string, length: 'Short' | 'Medium' | 'Long'): string {
  let text = `Fixture quote ${index} on ${category.toLowerCase()}`;
  const target = length === 'Short' ? 60 : length === 'Medium' ? 150 : 260;
  while (text.length < target) text += filler;
  return `${text.slice(0, target).trimEnd()}.`;
}

/** murmur3's finaliser: well-mixed, deterministic picks, so tags do not move in lockstep. */
function pick(index: number, salt: number, count: number): number {
  let h = (index ^ Math.imul(salt, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) % count;
}

/**
 * A small deterministic corpus that still exercises every taxonomy value: `perCategory` quotes
 * in each of the 43 categories, with moods, eras, lengths, faiths and scores picked by hash.
 */
export function fixtureRows(perCategory = 10): CorpusRow[] {
  const rows: CorpusRow[] = [];
  const { categories, moods, eras, lengths, faithTraditions } = taxonomy;
  let index = 0;
  for (const category of categories) {
    for (let n = 0; n < perCategory; n++, index++) {
      const mood = moods[pick(index, 1, moods.length)]!;
      const second = moods[pick(index, 2, moods.length)]!;
      rows.push({
        text: textOf(index, category, lengths[pick(index, 3, lengths.length)] as 'Short' | 'Medium' | 'Long'),
        author: `Author ${String.fromCharCode(65 + (index % 26))}. Fixture`,
        category,
        secondary_category: n % 3 === 0 ? null : categories[(categories.indexOf(category) + 1) % categories.length]!,
        moods: second === mood || pick(index, 4, 2) === 0 ? [mood] : [mood, second],
        era: eras[pick(index, 5, eras.length)]!,
        faith_tradition: pick(index, 6, 4) === 0 ? faithTraditions[pick(index, 7, faithTraditions.length)]! : null,
        // Few distinct scores: many ties, so the id tie-break decides much of the order.
        score: pick(index, 8, 20),
      });
    }
  }
  return rows;
}

export async function loadFixtureCorpus(handle: DatabaseHandle, rows: CorpusRow[] = fixtureRows()): Promise<void> {
  await replaceCorpus(handle, rows, { source: 'test fixture', seed: null });
}
