/** Hits and misses of one cache, counted where it is read: two increments, read by the metrics on scrape. */
export class CacheCounts {
  hits = 0;
  misses = 0;
}
