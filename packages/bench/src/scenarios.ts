/** One load scenario: the same path is sent to the server, the Express floor and the mock. */
export interface Scenario {
  id: string;
  title: string;
  path: string;
  /** Target ratio of the server's requests/s to the floor's (issue 6), if any. */
  floorTarget: number | null;
}

/**
 * The six scenarios of the benchmark. `filteredListPath` is chosen at run time from the loaded
 * corpus so that offset 500 lands inside the matching set rather than past its end.
 */
export function scenarios(filteredListPath: string, randomFilteredPath: string): Scenario[] {
  return [
    { id: 'random', title: 'quotes-random, no filter', path: '/v1/quotes-random', floorTarget: 0.6 },
    { id: 'random-filtered', title: 'quotes-random, category + mood', path: randomFilteredPath, floorTarget: 0.6 },
    {
      id: 'filter-3',
      title: 'quotes-filter, category + mood + era, limit 50, offset 500',
      path: filteredListPath,
      floorTarget: 0.5,
    },
    {
      id: 'filter-deep',
      title: 'quotes-filter, no filter, limit 100, offset 140,000',
      path: '/v1/quotes-filter?limit=100&offset=140000',
      floorTarget: 0.3,
    },
    { id: 'categories', title: 'quotes-categories', path: '/v1/quotes-categories', floorTarget: 0.8 },
    { id: 'usage', title: 'quotes-usage', path: '/v1/quotes-usage', floorTarget: null },
  ];
}
