import { cloneContract, readContractRules, rules } from '@quotes/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, migrationStatus, planRulesOfRow } from '../src/index.js';
import { migrations } from '../src/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../testing/testDatabase.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

describe('migrations on a real PostgreSQL', () => {
  it('apply in order and are recorded', async () => {
    const status = await migrationStatus(database.db);
    expect(status.map((m) => m.name)).toEqual(Object.keys(migrations).sort());
    expect(status.every((migration) => migration.executedAt !== null)).toBe(true);
    expect(status.map((m) => m.name)).toEqual([...status.map((m) => m.name)].sort());
  });

  it('seed the plans from the contract', async () => {
    const rows = await database.db.selectFrom('plans').selectAll().execute();
    const seeded = rules.plans.map((plan) => rows.find((row) => row.id === plan.id));
    expect(rows).toHaveLength(rules.plans.length);
    expect(seeded.map((row) => row && planRulesOfRow(row))).toEqual(rules.plans);
  });

  it('follow a changed allowance in the contract, for new databases and on the next start of old ones', async () => {
    const copy = cloneContract();
    const trial = (copy.info as unknown as { 'x-plans': Array<Record<string, unknown>> })['x-plans'][0]!;
    trial.monthly_calls = 777;
    const changed = await createTestDatabase({ plans: readContractRules(copy).plans });
    try {
      const row = await changed.db.selectFrom('plans').selectAll().where('id', '=', 'trial').executeTakeFirstOrThrow();
      expect(row.monthly_calls).toBe(777);
      await migrateToLatest(changed.db);
      const again = await changed.db.selectFrom('plans').select('monthly_calls').where('id', '=', 'trial').execute();
      expect(again).toEqual([{ monthly_calls: rules.planById.get('trial')?.monthlyCalls }]);
    } finally {
      await changed.drop();
    }
  });

  it('derive length from the text in characters, never by hand, at the contract thresholds', async () => {
    // The generated column necessarily repeats the thresholds in SQL: this test keeps the copy equal.
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
    const samples = rules.lengths.flatMap((band) => [
      { characters: band.minCharacters, expected: band.name },
      ...(band.maxCharacters === null
        ? [{ characters: 5000, expected: band.name }]
        : [{ characters: band.maxCharacters, expected: band.name }]),
    ]);
    await database.db
      .insertInto('quotes')
      .values(
        samples.map((sample, index) =>
          row((index % 2 === 0 ? '😀' : 'é').repeat(sample.characters), `q_${index}`, index),
        ),
      )
      .execute();
    const lengths = await database.db.selectFrom('quotes').select(['id', 'length']).orderBy('rank').execute();
    expect(lengths.map((r) => r.length)).toEqual(samples.map((sample) => sample.expected));
    await expect(sql`UPDATE quotes SET length = 'Long' WHERE id = 'q_0'`.execute(database.db)).rejects.toThrow();
  });
});
