import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * What each key's served calls were seen with, per UTC day, each distinct value once: the client
 * network (`network`, an IPv4 /24 or IPv6 /48), the browser origin (`origin`) and the page of a
 * filter (`page`: the filters, offset and limit). The signs of broken terms are read from it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE usage_sightings (
      key_id text NOT NULL CHECK (octet_length(key_id) <= 64),
      day date NOT NULL,
      kind text NOT NULL CHECK (kind IN ('network', 'origin', 'page')),
      value text NOT NULL CHECK (octet_length(value) <= 1000),
      PRIMARY KEY (key_id, day, kind, value)
    )`.execute(db);
  await sql`CREATE INDEX usage_sightings_day ON usage_sightings (day, kind)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE usage_sightings`.execute(db);
}
