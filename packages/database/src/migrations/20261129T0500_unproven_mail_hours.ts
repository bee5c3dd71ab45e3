import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * Mails sent to addresses nobody has proved yet, one row per clock hour for the whole service,
 * so the hourly budget holds across servers: each mail takes its place by one statement that
 * checks and adds under the row's lock.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE unproven_mail_hours (
      hour timestamptz PRIMARY KEY,
      mails integer NOT NULL CHECK (mails >= 0)
    ) WITH (fillfactor = 70)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE unproven_mail_hours`.execute(db);
}
