import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE plans (
      id text PRIMARY KEY,
      monthly_calls integer CHECK (monthly_calls >= 0),
      filters_per_call integer NOT NULL CHECK (filters_per_call >= 0),
      max_limit integer NOT NULL CHECK (max_limit BETWEEN 1 AND 1000),
      faith_filter boolean NOT NULL,
      validity_days integer CHECK (validity_days > 0),
      per_key_limits boolean NOT NULL DEFAULT false
    )`.execute(db);
  await sql`
    INSERT INTO plans (id, monthly_calls, filters_per_call, max_limit, faith_filter, validity_days, per_key_limits) VALUES
      ('trial',        1000,  1, 10,  false, 30,   false),
      ('starter',      10000, 2, 25,  false, NULL, false),
      ('professional', 50000, 5, 50,  true,  NULL, false),
      ('platform',     NULL,  5, 100, true,  NULL, false),
      ('enterprise',   NULL,  5, 100, true,  NULL, true)`.execute(db);

  await sql`
    CREATE TABLE api_keys (
      id text PRIMARY KEY,
      key_hash bytea NOT NULL UNIQUE CHECK (octet_length(key_hash) = 32),
      key_prefix text NOT NULL,
      client text NOT NULL CHECK (char_length(client) BETWEEN 1 AND 200),
      email text CHECK (char_length(email) <= 320),
      plan_id text NOT NULL REFERENCES plans (id),
      monthly_calls integer CHECK (monthly_calls >= 0),
      max_limit integer CHECK (max_limit BETWEEN 1 AND 1000),
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
      revoked_at timestamptz,
      revoked_reason text,
      expires_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'revoked') = (revoked_at IS NOT NULL))
    )`.execute(db);

  // fillfactor 70 keeps the per-call increments HOT (in place): no bloat under millions of updates.
  await sql`
    CREATE TABLE monthly_usage (
      key_id text NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
      month date NOT NULL CHECK (extract(day FROM month) = 1),
      calls integer NOT NULL CHECK (calls >= 0),
      PRIMARY KEY (key_id, month)
    ) WITH (fillfactor = 70)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE monthly_usage`.execute(db);
  await sql`DROP TABLE api_keys`.execute(db);
  await sql`DROP TABLE plans`.execute(db);
}
