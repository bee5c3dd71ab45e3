import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * The console's single-use sign-in links, by the SHA-256 of their token (the table holds no
 * usable link): made by a running console at its start or by `quotes-admin console link` from
 * another process, and taken by whichever console over this database is opened with one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE console_sign_in_links (
      token_hash bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE console_sign_in_links`.execute(db);
}
