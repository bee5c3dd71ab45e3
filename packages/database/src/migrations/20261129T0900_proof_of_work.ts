import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * The proof of work the public forms ask for while the service is busy: the secret every server
 * signs its challenges with (made once, by whichever server asks first), and the challenges
 * already used, each at most once whichever server it reaches (the primary key decides), kept
 * until they expire.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE service_secrets (
      name text PRIMARY KEY,
      secret bytea NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE spent_challenges (
      signature text PRIMARY KEY,
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX spent_challenges_expiry ON spent_challenges (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE spent_challenges`.execute(db);
  await sql`DROP TABLE service_secrets`.execute(db);
}
