// The taxonomy index alone, for the benchmarks' measurement of it against a Roaring library.
export type { RankSet } from './data/rankSet.js';
export { TaxonomyIndex, tagCodeLayout } from './data/taxonomyIndex.js';
