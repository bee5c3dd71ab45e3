import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * The key holders' own page (`/account`):
 * - a rolled key's previous secret (its SHA-256) keeps working until `previous_valid_until`;
 * - sign-in links (kept as their SHA-256, used once, short-lived), counted per address, network
 *   and person per hour the way key requests are;
 * - sessions in the database, so several servers behind one balancer share them (the cookie's
 *   SHA-256 only: the table holds no usable cookie);
 * - key requests of other kinds: a holder asking for a plan change or a renewal of a key they
 *   hold, at most one open per key (the partial unique index decides between two at once).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE api_keys
    ADD COLUMN previous_key_hash bytea,
    ADD COLUMN previous_valid_until timestamptz,
    ADD CONSTRAINT api_keys_previous_pair CHECK ((previous_key_hash IS NULL) = (previous_valid_until IS NULL))`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX api_keys_previous_key_hash ON api_keys (previous_key_hash) WHERE previous_key_hash IS NOT NULL`.execute(
    db,
  );
  await sql`
    CREATE TABLE account_sign_ins (
      token_hash bytea PRIMARY KEY,
      email text NOT NULL CHECK (char_length(email) BETWEEN 1 AND 254),
      email_canonical text NOT NULL GENERATED ALWAYS AS (canonical_email(email)) STORED,
      client_address inet NOT NULL,
      client_network cidr NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX account_sign_ins_created ON account_sign_ins (created_at)`.execute(db);
  await sql`
    CREATE TABLE account_sessions (
      cookie_hash bytea PRIMARY KEY,
      email_canonical text NOT NULL,
      csrf_token text NOT NULL,
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX account_sessions_expires ON account_sessions (expires_at)`.execute(db);
  await sql`ALTER TABLE key_requests
    ADD COLUMN kind text NOT NULL DEFAULT 'key' CHECK (kind IN ('key', 'plan-change', 'renewal')),
    ADD COLUMN for_key_id text REFERENCES api_keys (id) ON DELETE CASCADE,
    ADD CONSTRAINT key_requests_kind_key CHECK ((kind = 'key') = (for_key_id IS NULL))`.execute(db);
  await sql`CREATE UNIQUE INDEX key_requests_one_open_per_key ON key_requests (for_key_id) WHERE status = 'pending'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX key_requests_one_open_per_key`.execute(db);
  await sql`ALTER TABLE key_requests DROP CONSTRAINT key_requests_kind_key, DROP COLUMN for_key_id, DROP COLUMN kind`.execute(
    db,
  );
  await sql`DROP TABLE account_sessions`.execute(db);
  await sql`DROP TABLE account_sign_ins`.execute(db);
  await sql`DROP INDEX api_keys_previous_key_hash`.execute(db);
  await sql`ALTER TABLE api_keys DROP CONSTRAINT api_keys_previous_pair, DROP COLUMN previous_valid_until, DROP COLUMN previous_key_hash`.execute(
    db,
  );
}
