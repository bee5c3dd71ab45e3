// The taxonomy index alone, for the benchmarks' measurement of it against a Roaring library.
export type { RankSet } from './data/catalog/rankSet.js';
export { TaxonomyIndex, tagCodeLayout } from './data/catalog/taxonomyIndex.js';
