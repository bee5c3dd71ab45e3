import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/** Each sign of broken terms mailed to the operator, once per key, signal and month. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE usage_signal_alerts (
      key_id text NOT NULL CHECK (octet_length(key_id) <= 64),
      month date NOT NULL CHECK (extract(day FROM month) = 1),
      signal text NOT NULL CHECK (octet_length(signal) <= 40),
      sent_at timestamptz NOT NULL,
      PRIMARY KEY (month, key_id, signal)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE usage_signal_alerts`.execute(db);
}
