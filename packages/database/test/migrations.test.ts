import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationStatus } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../testing/testDatabase.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

describe('migrations on a real PostgreSQL', () => {
  it('apply in order and are recorded', async () => {
    const status = await migrationStatus(database.db);
    expect(status.length).toBeGreaterThan(0);
    expect(status.every((migration) => migration.executedAt !== null)).toBe(true);
    expect(status.map((m) => m.name)).toEqual([...status.map((m) => m.name)].sort());
  });

  it('seed the five plans as data', async () => {
    const plans = await database.db.selectFrom('plans').selectAll().orderBy('max_limit').orderBy('id').execute();
    expect(
      plans.map((p) => [p.id, p.monthly_calls, p.filters_per_call, p.max_limit, p.faith_filter, p.validity_days]),
    ).toEqual([
      ['trial', 1000, 1, 10, false, 30],
      ['starter', 10000, 2, 25, false, null],
      ['professional', 50000, 5, 50, true, null],
      ['enterprise', null, 5, 100, true, null],
      ['platform', null, 5, 100, true, null],
    ]);
  });

  it('derive length from the text in characters, never by hand', async () => {
    const row = (text: string, id: string, rank: number) => ({
      id,
      rank,
      text,
      author: 'A. Writer',
      category: 'Grief & Loss',
      secondary_category: null,
      moods: ['poignant'],
      era: 'Modern',
      faith_tradition: null,
      score: 1,
    });
    await database.db
      .insertInto('quotes')
      .values([
        row('x'.repeat(99), 'q_a', 0),
        row('é'.repeat(100), 'q_b', 1),
        row('😀'.repeat(200), 'q_c', 2),
        row('y'.repeat(201), 'q_d', 3),
      ])
      .execute();
    const lengths = await database.db.selectFrom('quotes').select(['id', 'length']).orderBy('rank').execute();
    expect(lengths.map((r) => r.length)).toEqual(['Short', 'Medium', 'Medium', 'Long']);
    await expect(sql`UPDATE quotes SET length = 'Long' WHERE id = 'q_a'`.execute(database.db)).rejects.toThrow();
  });
});
