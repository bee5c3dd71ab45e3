import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * The browser origins a key may be used from (CORS): empty for every existing key, so their
 * browser calls are refused until the operator allows an origin; server-side calls (no Origin)
 * are unaffected. Bounded to 50 entries of at most 200 characters.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE api_keys
      ADD COLUMN allowed_origins text[] NOT NULL DEFAULT '{}'
      CHECK (cardinality(allowed_origins) <= 50 AND octet_length(array_to_string(allowed_origins, '')) <= 10000)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE api_keys DROP COLUMN allowed_origins`.execute(db);
}
