import type pg from 'pg';
import { beginCountingTransaction } from './counterStatements.js';
import { UnansweredCommit } from './keyMonth.js';

/**
 * The round's statements in one transaction of their own, so a hang never leaves half a round:
 * a failure before COMMIT is sent closes the connection and PostgreSQL rolls it back; a COMMIT
 * without an answer throws UnansweredCommit with the transaction id.
 */
export async function inOwnTransaction(pool: pg.Pool, queries: readonly pg.QueryConfig[]): Promise<unknown[][]> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    // One round trip for both.
    await client.query(beginCountingTransaction);
    const results: unknown[][] = [];
    let xid: string | undefined;
    for (const query of queries) {
      const { rows } = await client.query(query);
      xid ??= (rows[0] as { xid?: string } | undefined)?.xid;
      results.push(rows);
    }
    try {
      await client.query('COMMIT');
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      if (xid !== undefined) throw new UnansweredCommit(xid, error);
      throw error;
    }
    return results;
  } catch (error) {
    failure ??= error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A connection that failed mid-transaction is closed, never reused.
    client.release(failure);
  }
}
