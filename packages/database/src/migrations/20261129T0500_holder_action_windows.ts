import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * How many times a key's holder changed their keys from the account page, per window: one row
 * per scope (`key:ID` or the holder's actor), action, window length and window start. A holder's
 * action takes its place in each of its windows with one upsert that adds 1 only while the count
 * is under the bound, so the row lock decides between two at once; an action that then fails
 * gives its place back, and a window's row is deleted once the window is over. Fill factor 70:
 * the counts are updated in place (HOT).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE holder_action_windows (
      scope text NOT NULL CHECK (octet_length(scope) BETWEEN 1 AND 100),
      action text NOT NULL CHECK (octet_length(action) BETWEEN 1 AND 40),
      window_seconds integer NOT NULL CHECK (window_seconds > 0),
      window_start timestamptz NOT NULL,
      actions integer NOT NULL CHECK (actions >= 0),
      PRIMARY KEY (scope, action, window_seconds, window_start)
    ) WITH (fillfactor = 70)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE holder_action_windows`.execute(db);
}
