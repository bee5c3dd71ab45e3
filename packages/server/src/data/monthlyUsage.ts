import { type Kysely, sql } from 'kysely';
import type { Database } from '@quotes/database';

/** Reads and operator writes of the monthly counters; the request path counts through monthlyCounter.ts. */

export async function callsInMonth(db: Kysely<Database>, keyId: string, monthKey: string): Promise<number> {
  const row = await db
    .selectFrom('monthly_usage')
    .select('calls')
    .where('key_id', '=', keyId)
    .where('month', '=', monthKey)
    .executeTakeFirst();
  return row?.calls ?? 0;
}

/** Operator override (e.g. to exhaust a key for a test); not used by the request path. */
export async function setCallsInMonth(
  db: Kysely<Database>,
  keyId: string,
  monthKey: string,
  calls: number,
): Promise<void> {
  await db
    .insertInto('monthly_usage')
    .values({ key_id: keyId, month: monthKey, calls })
    .onConflict((oc) => oc.columns(['key_id', 'month']).doUpdateSet({ calls }))
    .execute();
}

export async function usageInMonth(db: Kysely<Database>, monthKey: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('monthly_usage')
    .select(['key_id', 'calls'])
    .where('month', '=', sql<string>`${monthKey}::date`)
    .execute();
  return new Map(rows.map((row) => [row.key_id, row.calls]));
}
