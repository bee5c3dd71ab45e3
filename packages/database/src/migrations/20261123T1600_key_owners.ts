import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * Keys belong to people: the operator finds, limits and revokes them by e-mail address and by
 * client. Both are compared in a canonical form the database computes, so every row (old ones
 * included) is compared the same way and the rule is written once:
 * - an address: lower case, without a +tag, and for Gmail (gmail.com, googlemail.com) without
 *   dots in the local part and on one domain;
 * - a client: lower case, trimmed, runs of white space as one space.
 * Rolling a key's secret is recorded; usage alerts remember what they sent, once per key,
 * month and threshold.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION canonical_email(address text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
      SELECT CASE WHEN parts.domain IN ('gmail.com', 'googlemail.com')
                  THEN replace(parts.local, '.', '') || '@gmail.com'
                  ELSE parts.local || '@' || parts.domain END
      FROM (SELECT split_part(split_part(lower(btrim(address)), '@', 1), '+', 1) AS local,
                   split_part(lower(btrim(address)), '@', 2) AS domain) AS parts
      WHERE address IS NOT NULL
    $$`.execute(db);
  await sql`
    CREATE FUNCTION canonical_client(name text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT lower(regexp_replace(btrim(name), '\\s+', ' ', 'g')) $$`.execute(db);
  await sql`
    ALTER TABLE api_keys
      ADD COLUMN email_canonical text GENERATED ALWAYS AS (canonical_email(email)) STORED,
      ADD COLUMN client_canonical text NOT NULL GENERATED ALWAYS AS (canonical_client(client)) STORED,
      ADD COLUMN secret_rolled_at timestamptz`.execute(db);
  await sql`CREATE INDEX api_keys_email_canonical ON api_keys (email_canonical)`.execute(db);
  await sql`CREATE INDEX api_keys_client_canonical ON api_keys (client_canonical)`.execute(db);

  await sql`
    CREATE TABLE usage_alerts (
      key_id text NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
      month date NOT NULL CHECK (extract(day FROM month) = 1),
      threshold integer NOT NULL CHECK (threshold BETWEEN 1 AND 100),
      sent_at timestamptz NOT NULL,
      PRIMARY KEY (key_id, month, threshold)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE usage_alerts`.execute(db);
  await sql`DROP INDEX api_keys_client_canonical`.execute(db);
  await sql`DROP INDEX api_keys_email_canonical`.execute(db);
  await sql`ALTER TABLE api_keys DROP COLUMN email_canonical, DROP COLUMN client_canonical, DROP COLUMN secret_rolled_at`.execute(
    db,
  );
  await sql`DROP FUNCTION canonical_client(text)`.execute(db);
  await sql`DROP FUNCTION canonical_email(text)`.execute(db);
}
