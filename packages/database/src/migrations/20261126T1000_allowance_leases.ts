import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * Allowance leases: the part of a capped key's monthly allowance a server has reserved to serve
 * from memory. Each server keeps `monthly_usage.calls` plus every live lease's `reserved` at most
 * the key's cap, changing leases only while it holds the key's usage row locked. A lease whose
 * `renewed_at` is old belongs to a server that stopped renewing it (killed), and any server may
 * delete it. Calls are now counted when answered, so a round no longer reports a grant beside the
 * total: `last_grant` goes. `count_journals` records, per server process, the last generation of
 * its journal of answered calls whose calls are in `monthly_usage` (written in the same
 * transaction), so a killed server's journal is added once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE allowance_leases (
      server_id text NOT NULL CHECK (octet_length(server_id) <= 64),
      key_id text NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
      month date NOT NULL CHECK (extract(day FROM month) = 1),
      reserved integer NOT NULL CHECK (reserved > 0),
      renewed_at timestamptz NOT NULL,
      PRIMARY KEY (server_id, key_id, month)
    ) WITH (fillfactor = 70)`.execute(db);
  await sql`CREATE INDEX allowance_leases_key ON allowance_leases (key_id, month)`.execute(db);
  await sql`
    CREATE TABLE count_journals (
      server_id text PRIMARY KEY CHECK (octet_length(server_id) <= 64),
      written_generation integer NOT NULL CHECK (written_generation >= 0),
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`ALTER TABLE monthly_usage DROP COLUMN last_grant`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE monthly_usage ADD COLUMN last_grant integer NOT NULL DEFAULT 0 CHECK (last_grant >= 0)`.execute(
    db,
  );
  await sql`DROP TABLE count_journals`.execute(db);
  await sql`DROP TABLE allowance_leases`.execute(db);
}
