import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * One counter statement may grant part of a coalesced batch of calls ("as many as remain").
 * To report how many it granted it must know the row's value before the update, which
 * PostgreSQL 17 cannot return (RETURNING OLD arrives in 18): the statement writes the grant
 * beside the total, computed from the same locked row version, and returns both.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE monthly_usage ADD COLUMN last_grant integer NOT NULL DEFAULT 0 CHECK (last_grant >= 0)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE monthly_usage DROP COLUMN last_grant`.execute(db);
}
