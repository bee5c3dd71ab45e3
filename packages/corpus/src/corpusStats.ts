import { taxonomy } from '@quotes/contract';
import { sql } from 'kysely';
import type { DatabaseHandle } from '@quotes/database';

export interface CorpusStats {
  total: number;
  /** Every taxonomy value with its count (0 when none); values outside the taxonomy are listed too. */
  byCategory: Record<string, number>;
  /** Quotes carrying each mood (a quote with two moods counts under both). */
  byMood: Record<string, number>;
  byEra: Record<string, number>;
  byLength: Record<string, number>;
  byFaith: Record<string, number>;
  /** Quotes without a faith tradition. */
  withoutFaith: number;
  /** Quotes with a secondary category. */
  withSecondaryCategory: number;
  /** Where the corpus came from; null before the first load. */
  state: { version: number; source: string; seed: number | null; size: number; loadedAt: string } | null;
}

function zeroes(values: readonly string[]): Record<string, number> {
  return Object.fromEntries(values.map((value) => [value, 0]));
}

export async function corpusStats(handle: DatabaseHandle): Promise<CorpusStats> {
  const { db } = handle;
  const grouped = async (column: 'category' | 'era' | 'length' | 'faith_tradition', start: Record<string, number>) => {
    const rows = await db
      .selectFrom('quotes')
      .select([column, (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(column)
      .execute();
    const counts = { ...start };
    let nulls = 0;
    for (const row of rows) {
      const value = (row as Record<string, unknown>)[column] as string | null;
      if (value === null) nulls = Number(row.count);
      else counts[value] = Number(row.count);
    }
    return { counts, nulls };
  };
  const [categories, eras, lengths, faiths] = [
    await grouped('category', zeroes(taxonomy.categories)),
    await grouped('era', zeroes(taxonomy.eras)),
    await grouped('length', zeroes(taxonomy.lengths)),
    await grouped('faith_tradition', zeroes(taxonomy.faithTraditions)),
  ];
  const moodRows = await sql<{ mood: string; count: number }>`
    SELECT mood, count(*) AS count FROM quotes, unnest(moods) AS mood GROUP BY mood`.execute(db);
  const byMood = zeroes(taxonomy.moods);
  for (const row of moodRows.rows) byMood[row.mood] = Number(row.count);
  const secondary = await db
    .selectFrom('quotes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('secondary_category', 'is not', null)
    .executeTakeFirstOrThrow();
  const state = await db.selectFrom('corpus_state').selectAll().where('id', '=', 1).executeTakeFirst();
  const total = Object.values(categories.counts).reduce((sum, count) => sum + count, 0);
  return {
    total,
    byCategory: categories.counts,
    byMood,
    byEra: eras.counts,
    byLength: lengths.counts,
    byFaith: faiths.counts,
    withoutFaith: faiths.nulls,
    withSecondaryCategory: Number(secondary.count),
    state: state
      ? {
          version: state.version,
          source: state.source,
          seed: state.seed,
          size: state.size,
          loadedAt: new Date(state.loaded_at).toISOString(),
        }
      : null,
  };
}
