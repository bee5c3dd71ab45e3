import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendCorpus, type CorpusRow, corpusStats, quoteId, replaceCorpus } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

function row(text: string, overrides: Partial<CorpusRow> = {}): CorpusRow {
  return {
    text,
    author: 'Ilse Marrowby',
    category: 'Grief & Loss',
    secondary_category: 'Memory & Nostalgia',
    moods: ['poignant', 'reflective'],
    era: 'Modern',
    faith_tradition: null,
    score: 10,
    ...overrides,
  };
}

describe('replaceCorpus', () => {
  it('loads rows with dense ranks by score desc, id asc, and records the state', async () => {
    const rows = [
      row('The first loss teaches the alphabet of every other.', { score: 5 }),
      row('Grief keeps its own calendar.', { score: 50 }),
      row('Tabs\tand\\backslashes\nsurvive COPY.', { score: 5 }),
    ];
    const report = await replaceCorpus(database, rows, { source: 'test', seed: 7 });
    expect(report).toMatchObject({
      mode: 'replace',
      received: 3,
      imported: 3,
      duplicates: 0,
      total: 3,
      version: 1,
      seed: 7,
    });
    const loaded = await database.db
      .selectFrom('quotes')
      .select(['id', 'rank', 'text', 'score', 'length'])
      .orderBy('rank')
      .execute();
    expect(loaded.map((quote) => quote.rank)).toEqual([0, 1, 2]);
    expect(loaded[0]!.text).toBe('Grief keeps its own calendar.');
    const tied = loaded.slice(1).map((quote) => quote.id);
    expect(tied).toEqual([...tied].sort());
    expect(loaded.some((quote) => quote.text === 'Tabs\tand\\backslashes\nsurvive COPY.')).toBe(true);
    expect(loaded[0]!.id).toBe(quoteId('Grief keeps its own calendar.', 'Ilse Marrowby'));
    const state = await database.db.selectFrom('corpus_state').selectAll().executeTakeFirstOrThrow();
    expect(state).toMatchObject({ version: 1, source: 'test', seed: 7, size: 3 });
  });

  it('keeps every index and constraint of the quotes table under its name', async () => {
    const indexes = await sql<{
      indexname: string;
    }>`SELECT indexname FROM pg_indexes WHERE tablename = 'quotes' ORDER BY indexname`.execute(database.db);
    expect(indexes.rows.map((index) => index.indexname)).toEqual([
      'quotes_category_rank',
      'quotes_era_rank',
      'quotes_faith_rank',
      'quotes_length_rank',
      'quotes_moods',
      'quotes_pkey',
      'quotes_rank_key',
      'quotes_rank_tag_code',
    ]);
    const constraints = await sql<{
      conname: string;
    }>`SELECT conname FROM pg_constraint WHERE conrelid = 'quotes'::regclass ORDER BY conname`.execute(database.db);
    expect(constraints.rows.map((constraint) => constraint.conname)).toContain('quotes_pkey');
    await expect(sql`UPDATE quotes SET length = 'Long'`.execute(database.db)).rejects.toThrow();
    // Vacuumed after the swap: every page all-visible, so counts can be index-only scans.
    const visibility = await sql<{
      relpages: number;
      relallvisible: number;
    }>`SELECT relpages, relallvisible FROM pg_class WHERE relname = 'quotes'`.execute(database.db);
    expect(visibility.rows[0]!.relallvisible).toBe(visibility.rows[0]!.relpages);
    const leftovers = await sql<{
      relname: string;
    }>`SELECT relname FROM pg_class WHERE relname LIKE '%next%' OR relname LIKE 'corpus_staging%'`.execute(database.db);
    expect(leftovers.rows).toEqual([]);
  });

  it('drops duplicates (case, spacing, punctuation) and keeps the first', async () => {
    const report = await replaceCorpus(
      database,
      [
        row('Grief keeps its own calendar.', { score: 1 }),
        row('  grief KEEPS its own calendar!! ', { score: 99 }),
        row('Another line entirely.'),
      ],
      { source: 'test' },
    );
    expect(report).toMatchObject({ received: 3, imported: 2, duplicates: 1, total: 2, version: 2 });
    const kept = await database.db
      .selectFrom('quotes')
      .select(['text', 'score'])
      .where('id', '=', quoteId('Grief keeps its own calendar.', 'Ilse Marrowby'))
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ text: 'Grief keeps its own calendar.', score: 1 });
  });

  it('refuses an invalid row and leaves the corpus as it was', async () => {
    await expect(
      replaceCorpus(database, [row('A fine line.'), row('Bad mood here.', { moods: ['grumpy'] })], { source: 'bad' }),
    ).rejects.toThrow(/row 2: unknown mood 'grumpy'/);
    const stats = await corpusStats(database);
    expect(stats.total).toBe(2);
    expect(stats.state?.version).toBe(2);
  });

  it('appends with ranks recomputed over the union, counting quotes already there as duplicates', async () => {
    const report = await appendCorpus(
      database,
      [
        row('Grief keeps its own calendar.'),
        row('A new quote arrives with the highest score.', { score: 1000, category: 'Hope & Optimism' }),
      ],
      { source: 'more' },
    );
    expect(report).toMatchObject({ mode: 'append', received: 2, imported: 1, duplicates: 1, total: 3, version: 3 });
    expect(report.byCategory['Hope & Optimism']).toBe(1);
    expect(report.byCategory['Grief & Loss']).toBe(0);
    const ranks = await database.db.selectFrom('quotes').select(['rank', 'text']).orderBy('rank').execute();
    expect(ranks.map((quote) => quote.rank)).toEqual([0, 1, 2]);
    expect(ranks[0]!.text).toBe('A new quote arrives with the highest score.');
    expect((await corpusStats(database)).state?.source).toBe('test + more');
  });
});
