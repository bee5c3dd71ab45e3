import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * The notices the service itself mails to the operator, one row per kind, with when the last one
 * went. Every server sweeps; the row's lock decides which one mails, and its time keeps the
 * notices at least the kind's interval apart. `requests-waiting` starts as never sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE operator_notices (
      kind text PRIMARY KEY,
      sent_at timestamptz NOT NULL
    )`.execute(db);
  await sql`INSERT INTO operator_notices (kind, sent_at) VALUES ('requests-waiting', '-infinity')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE operator_notices`.execute(db);
}
