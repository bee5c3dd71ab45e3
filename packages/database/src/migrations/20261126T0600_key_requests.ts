import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * Requests for a key from the public form (`POST /keys/requests`). The confirmation token is
 * kept only as its SHA-256 (cleared once used or expired); the address is compared in the
 * canonical form of `canonical_email` (one person), the client's network (/24, /56) for one
 * trial per network. Every text is bounded here as well as at the door.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE key_requests (
      id text PRIMARY KEY,
      email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
      email_canonical text NOT NULL GENERATED ALWAYS AS (canonical_email(email)) STORED,
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
      application text NOT NULL CHECK (char_length(application) BETWEEN 1 AND 200),
      plan_id text NOT NULL REFERENCES plans (id),
      use text NOT NULL CHECK (char_length(use) BETWEEN 1 AND 1000),
      client_address inet NOT NULL,
      client_network cidr NOT NULL,
      status text NOT NULL CHECK (status IN ('unconfirmed', 'pending', 'approved', 'rejected', 'expired')),
      reasons text[] NOT NULL DEFAULT '{}' CHECK (cardinality(reasons) <= 10),
      token_hash bytea UNIQUE,
      token_expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      confirmed_at timestamptz,
      decided_at timestamptz,
      key_id text REFERENCES api_keys (id) ON DELETE SET NULL,
      rejection_reason text CHECK (char_length(rejection_reason) <= 1000)
    )`.execute(db);
  await sql`CREATE INDEX key_requests_client_address ON key_requests (client_address, created_at)`.execute(db);
  await sql`CREATE INDEX key_requests_email_canonical ON key_requests (email_canonical, created_at)`.execute(db);
  await sql`CREATE INDEX key_requests_status ON key_requests (status, created_at)`.execute(db);
  await sql`CREATE INDEX key_requests_network ON key_requests (client_network, decided_at) WHERE status = 'approved'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE key_requests`.execute(db);
}
