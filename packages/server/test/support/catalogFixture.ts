import type pg from 'pg';
import { QuoteCatalog, type QuoteCatalogOptions } from '../../src/data/catalog/quoteCatalog.js';

/** The real pool, each statement written down and, with `delayMs`, sent that much later. */
export function recordingPool(pool: pg.Pool, delayMs = 0): { pool: pg.Pool; statements: string[] } {
  const statements: string[] = [];
  const wrapper = {
    query: async (...args: unknown[]) => {
      const first = args[0] as string | { name?: string; text: string };
      statements.push(typeof first === 'string' ? first : (first.name ?? first.text));
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return (pool.query as (...a: unknown[]) => unknown).apply(pool, args);
    },
  };
  return { pool: wrapper as unknown as pg.Pool, statements };
}

/**
 * Writes down, in place, the text of every statement `pool` runs from now on: for a runtime that
 * takes the database handle whole (createServiceRuntime), where recordingPool's wrapper cannot go.
 */
export function recordStatementsOf(pool: pg.Pool): string[] {
  const statements: string[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    const first = args[0] as string | { text: string };
    statements.push(typeof first === 'string' ? first : first.text);
    return query(...args);
  }) as typeof pool.query;
  return statements;
}

/** A catalog over `pool` with 1 MB for match sets and 1 MB for quotes, notifications arriving. */
export function testCatalog(pool: pg.Pool, options: Partial<QuoteCatalogOptions> = {}): QuoteCatalog {
  return new QuoteCatalog(pool, {
    cacheBytes: 1 << 20,
    quoteTextBytes: 1 << 20,
    notificationsLive: () => true,
    ...options,
  });
}
