import type pg from 'pg';
import { CorpusError } from './errors.js';

/** The quotes table's indexes rebuilt on quotes_next, and the swap of quotes_next in for quotes. */

export interface IndexOfQuotes {
  name: string;
  definition: string;
  constraintType: 'p' | 'u' | null;
}

export async function indexesOfQuotes(client: pg.Client): Promise<IndexOfQuotes[]> {
  const result = await client.query<{ name: string; definition: string; contype: string | null }>(`
    SELECT index_class.relname AS name, pg_get_indexdef(i.indexrelid) AS definition, c.contype
    FROM pg_index i
    JOIN pg_class index_class ON index_class.oid = i.indexrelid
    LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid
    WHERE i.indrelid = 'quotes'::regclass
    ORDER BY index_class.relname`);
  return result.rows.map((row) => {
    if (row.contype !== null && row.contype !== 'p' && row.contype !== 'u') {
      throw new CorpusError(
        `quotes index ${row.name} backs a constraint of type '${row.contype}', which the loader cannot rebuild`,
      );
    }
    return { name: row.name, definition: row.definition, constraintType: row.contype as 'p' | 'u' | null };
  });
}

export const stagedName = (name: string) => `${name}_next`;

/** The same index, on quotes_next under a temporary name (the old table still holds the real one). */
export function indexOnNextTable(index: IndexOfQuotes): string {
  const match = /^(CREATE (?:UNIQUE )?INDEX )(\S+)( ON (?:ONLY )?)((?:\S+\.)?)quotes( USING .*)$/s.exec(
    index.definition,
  );
  if (!match)
    throw new CorpusError(`cannot rebuild quotes index ${index.name}: unexpected definition ${index.definition}`);
  return `${match[1]}${stagedName(index.name)}${match[3]}${match[4]}quotes_next${match[5]}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const lockNotAvailable = '55P03';

/**
 * Swaps quotes_next in for quotes. The exclusive lock is held only for these few catalogue
 * statements. It is first tried without waiting, so readers never queue behind the swap; if the
 * table is never free (a steady stream of readers, autovacuum), it waits for at most
 * `lockTimeoutMs` at a time, rolling back to the savepoint and retrying after each timeout, so a
 * slow reader never turns into a failed load.
 */
export async function swapTables(client: pg.Client, indexes: IndexOfQuotes[], lockTimeoutMs: number): Promise<void> {
  const immediateAttempts = 10;
  for (let attempt = 1; ; attempt++) {
    await client.query('SAVEPOINT swap');
    try {
      if (attempt <= immediateAttempts) {
        await client.query('LOCK TABLE quotes, quotes_next IN ACCESS EXCLUSIVE MODE NOWAIT');
      } else {
        await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(lockTimeoutMs))}`);
        await client.query('LOCK TABLE quotes, quotes_next IN ACCESS EXCLUSIVE MODE');
        await client.query('SET LOCAL lock_timeout = 0');
      }
      await client.query('DROP TABLE quotes');
      await client.query('ALTER TABLE quotes_next RENAME TO quotes');
      // Renaming an index that backs a constraint renames the constraint too.
      for (const index of indexes) await client.query(`ALTER INDEX ${stagedName(index.name)} RENAME TO ${index.name}`);
      await client.query('RELEASE SAVEPOINT swap');
      return;
    } catch (error) {
      await client.query('ROLLBACK TO SAVEPOINT swap');
      if ((error as { code?: string }).code !== lockNotAvailable || attempt >= immediateAttempts + 30) throw error;
      await sleep(attempt <= immediateAttempts ? 100 : Math.min(2000, 250 * (attempt - immediateAttempts)));
    }
  }
}
