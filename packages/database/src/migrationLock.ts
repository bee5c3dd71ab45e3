// biome-ignore-all lint/suspicious/noExplicitAny: the Migrator works on any schema, as kysely documents.
import { type Kysely, PostgresAdapter, PostgresDialect, sql } from 'kysely';

/**
 * Serialises migrations across processes (servers starting together, the CLI) with a
 * transaction-scoped advisory lock, taken first in the one transaction every migration runs in.
 * Kysely's own lock is session-scoped, taken and released in statements of their own around
 * that transaction: behind a transaction pooler the release may reach another server connection
 * than the lock, which then stays held on its connection, and the next migration waits on it.
 */
export async function lockMigrations(trx: Kysely<any>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('quotes:migrations'))`.execute(trx);
}

/** Kysely's PostgreSQL adapter with the migrations' lock above: released by the transaction's end. */
class TransactionLockAdapter extends PostgresAdapter {
  override async acquireMigrationLock(db: Kysely<any>): Promise<void> {
    await lockMigrations(db);
  }

  override async releaseMigrationLock(): Promise<void> {}
}

/** The PostgreSQL dialect of every handle (connectDatabase). */
export class QuotesPostgresDialect extends PostgresDialect {
  override createAdapter(): PostgresAdapter {
    return new TransactionLockAdapter();
  }
}
