import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@quotes/database';

/**
 * Runs `work` in a transaction: a new one on a database, the caller's own when `db` already is
 * one, so a data function that needs a transaction can join an operator action's (its change and
 * its audit entry commit together).
 */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}
