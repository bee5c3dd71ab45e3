/** One load scenario: the same path is sent to the server, the same-bytes floor and the mock. */
export interface Scenario {
  id: string;
  title: string;
  path: string;
  /** Target ratio of the server's requests/s to the same-bytes floor's, if any. */
  floorTarget: number | null;
}

/** Past this many quotes the corpus is "large": its quotes' JSON is not all held, and some targets are lower. */
const largeCorpus = 150_000;

/**
 * The single-URL scenarios. `filteredListPath` is chosen at run time from the loaded corpus so
 * that offset 500 lands inside the matching set rather than past its end. At 1,500,000 quotes an
 * unfiltered random pick reads its quote from PostgreSQL, and its target is 0.5.
 */
export function scenarios(filteredListPath: string, randomFilteredPath: string, corpusSize = largeCorpus): Scenario[] {
  return [
    {
      id: 'random',
      title: 'quotes-random, no filter',
      path: '/v1/quotes-random',
      floorTarget: corpusSize > largeCorpus ? 0.5 : 0.6,
    },
    { id: 'random-filtered', title: 'quotes-random, category + mood', path: randomFilteredPath, floorTarget: 0.6 },
    {
      id: 'filter-3',
      title: 'quotes-filter, category + mood + era, limit 50, offset 500',
      path: filteredListPath,
      floorTarget: 0.6,
    },
    {
      id: 'filter-deep',
      title: 'quotes-filter, no filter, limit 100, offset 140,000',
      path: '/v1/quotes-filter?limit=100&offset=140000',
      floorTarget: 0.6,
    },
    { id: 'categories', title: 'quotes-categories', path: '/v1/quotes-categories', floorTarget: 0.85 },
    { id: 'usage', title: 'quotes-usage', path: '/v1/quotes-usage', floorTarget: 0.6 },
  ];
}

/** The mixed scenario: many URLs (see mixedTraffic.ts), sent in a long-tailed order. */
export function mixedScenario(distinct: number, requests: number, corpusSize = largeCorpus): Scenario {
  return {
    id: 'mixed',
    title: `mixed: ${distinct.toLocaleString('en-US')} URLs, ${requests.toLocaleString('en-US')} in a long-tailed order`,
    path: '(list)',
    floorTarget: corpusSize > largeCorpus ? 0.4 : 0.5,
  };
}

/** A category + mood (+ era) combination whose matching set is large enough for offset 500 to land inside it. */
export async function pickFilteredPaths(
  baseUrl: string,
  key: string,
  log: (line: string) => void,
): Promise<{ list: string; random: string }> {
  // `parent` matches two categories (Family & Parenting, Parenting & Children): over 550 quotes at 150,000.
  const candidates = [
    ['parent', 'reflective', 'contemporary'],
    ['parent', 'reflective', 'modern'],
    ['life', 'reflective', 'modern'],
    ['love', 'uplifting', 'contemporary'],
    ['wisdom', 'reflective', 'ancient'],
    ['hope', 'inspirational', 'modern'],
    ['grief', 'poignant', 'contemporary'],
  ];
  let best = { total: -1, list: '', random: '' };
  for (const [category, mood, era] of candidates) {
    const list = `/v1/quotes-filter?category=${category}&mood=${mood}&era=${era}&limit=50&offset=500`;
    const response = await fetch(`${baseUrl}${list}`, { headers: { 'X-API-Key': key } });
    const body = (await response.json()) as { total?: number };
    const total = body.total ?? 0;
    if (total > best.total) best = { total, list, random: `/v1/quotes-random?category=${category}&mood=${mood}` };
    if (total >= 550) break;
  }
  log(`  filtered scenario: ${best.list} (${best.total} matching)`);
  return best;
}
