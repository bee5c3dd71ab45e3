import type pg from 'pg';
import type { DeadJournal } from './countJournal.js';
import { flushStatement } from './counterStatements.js';

/**
 * Adds the calls of dead servers' journals not yet in monthly_usage, each journal in one
 * transaction under its `count_journals` row's lock (so two servers sweeping at once add it once),
 * then deletes its folder. Returns the calls added.
 */
export async function recoverJournals(
  pool: pg.Pool,
  journals: readonly DeadJournal[],
  onFailure: (error: unknown) => void,
): Promise<number> {
  let recovered = 0;
  for (const journal of journals) {
    const client = await pool.connect();
    let failure: Error | undefined;
    try {
      await client.query('BEGIN');
      await client.query(
        'INSERT INTO count_journals (server_id, written_generation, updated_at) VALUES ($1, 0, now()) ON CONFLICT DO NOTHING',
        [journal.serverId],
      );
      const { rows } = await client.query<{ written_generation: number }>(
        'SELECT written_generation FROM count_journals WHERE server_id = $1 FOR UPDATE',
        [journal.serverId],
      );
      // Read under the lock: a sweep that committed first has moved the generation on.
      const { calls, last } = journal.read(rows[0]?.written_generation ?? 0);
      const lines = [...calls].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      if (lines.length > 0) {
        const keyMonths = lines.map(([line]) => line.split(' '));
        await client.query(flushStatement, [
          keyMonths.map(([keyId]) => keyId),
          keyMonths.map(([, monthKey]) => monthKey),
          lines.map(([, count]) => count),
        ]);
      }
      await client.query('UPDATE count_journals SET written_generation = $2, updated_at = now() WHERE server_id = $1', [
        journal.serverId,
        last,
      ]);
      await client.query('COMMIT');
      for (const [, count] of lines) recovered += count;
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      onFailure(error);
      continue;
    } finally {
      client.release(failure);
    }
    journal.remove();
  }
  return recovered;
}
