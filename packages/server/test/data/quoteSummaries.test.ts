import fc from 'fast-check';
import { createTestDatabase, type TestDatabase } from '@quotes/database/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summariesOfQuotes } from '../../src/data/catalog/quoteSummaries.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

/** Text PostgreSQL stores as given (no NUL), with the property names a cut looks for mixed in. */
const hostileText = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom(',"secondary_category":', ',"mood":', ',"faith_tradition":', '"', '\\', '\\"', '}', ',"'),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join('').replaceAll('\u0000', ''));
const nullable = fc.option(hostileText, { nil: null });

describe('a QuoteSummary cut from the stored Quote JSON', () => {
  it('is byte for byte the summary the database builds, whatever the texts hold', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          id: hostileText,
          text: hostileText,
          author: hostileText,
          category: hostileText,
          secondary: nullable,
          moods: fc.array(hostileText, { maxLength: 3 }),
          era: hostileText,
          faith: nullable,
        }),
        async (row) => {
          const { rows } = await database.pool.query<{ quote: string; summary: string }>(
            `SELECT quotes_quote_json($1, $2, $3, $4, $5, $6::text[], $7, $8) AS quote,
                    quotes_summary_json($1, $2, $3, $4, $6::text[], $7) AS summary`,
            [row.id, row.text, row.author, row.category, row.secondary, row.moods, row.era, row.faith],
          );
          const [stored] = rows;
          const cut = summariesOfQuotes([Buffer.from(stored?.quote ?? '')]);
          expect(cut?.map(String)).toEqual([stored?.summary]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives up on a quote missing or not of that shape, so the stored summaries are read instead', () => {
    expect(summariesOfQuotes([undefined])).toBeUndefined();
    expect(summariesOfQuotes([Buffer.from('{"id":"q_1","text":"x"}')])).toBeUndefined();
    expect(summariesOfQuotes([])).toEqual([]);
  });
});
