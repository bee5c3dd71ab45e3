import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * Calls per key, period and outcome (`served`, or the problem type a refusal was answered with),
 * added to by each server's periodic flush. `span` is `hour` for recent periods and `day` once
 * hourly rows are folded; calls of unknown keys share the key id `unknown`. No foreign key: the
 * history outlives nothing it refers to, and the unknown bucket refers to no key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE usage_history (
      key_id text NOT NULL CHECK (octet_length(key_id) <= 64),
      span text NOT NULL CHECK (span IN ('hour', 'day')),
      period_start timestamptz NOT NULL,
      outcome text NOT NULL CHECK (octet_length(outcome) <= 64),
      calls bigint NOT NULL CHECK (calls >= 0),
      PRIMARY KEY (key_id, span, period_start, outcome)
    ) WITH (fillfactor = 70)`.execute(db);
  // Folding and retention walk the table by age.
  await sql`CREATE INDEX usage_history_period ON usage_history (span, period_start)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE usage_history`.execute(db);
}
