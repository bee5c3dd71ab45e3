import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, OperatorAuditTable } from '@quotes/database';

/** One operator action as the audit keeps it; `before` and `after` are JSON views without secrets. */
export interface AuditEntry {
  actor: string;
  action: string;
  target: string;
  keyId: string | null;
  before: unknown;
  after: unknown;
  reason: string | null;
}

export interface StoredAuditEntry extends AuditEntry {
  id: string;
  at: Date;
}

const asJson = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** Appends entries in one statement; the table refuses any later change (a trigger: migration 20261126T0701). */
export async function appendAuditEntries(db: Kysely<Database>, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('operator_audit')
    .values(
      entries.map((entry) => ({
        actor: entry.actor,
        action: entry.action,
        target: entry.target,
        key_id: entry.keyId,
        before: sql`${asJson(entry.before)}::jsonb`,
        after: sql`${asJson(entry.after)}::jsonb`,
        reason: entry.reason,
      })),
    )
    .execute();
}

/** Entries oldest first, of one key when given, from `since` when given, at most `limit`. */
export async function listAuditEntries(
  db: Kysely<Database>,
  filter: { keyId?: string; since?: Date; limit: number },
): Promise<StoredAuditEntry[]> {
  let query = db.selectFrom('operator_audit').selectAll();
  if (filter.keyId !== undefined) query = query.where('key_id', '=', filter.keyId);
  if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
  const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  return rows.reverse().map(storedAuditEntry);
}

/** A row of `operator_audit` as the rest of the code reads it. */
export function storedAuditEntry(row: Selectable<OperatorAuditTable>): StoredAuditEntry {
  return {
    id: String(row.id),
    at: row.at,
    actor: row.actor,
    action: row.action,
    target: row.target,
    keyId: row.key_id,
    before: row.before,
    after: row.after,
    reason: row.reason,
  };
}
