import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * Which corpus positions (ranks) each key was served in a UTC month: an exact bitset in chunks of
 * 8,192 positions (1 KB each), only the chunks a key touched stored. Servers add their bits with
 * a bitwise OR on conflict, so the merge across servers is exact; the distinct quotes served are
 * `sum(bit_count(bits))`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE usage_coverage (
      key_id text NOT NULL CHECK (octet_length(key_id) <= 64),
      month date NOT NULL CHECK (extract(day FROM month) = 1),
      chunk integer NOT NULL CHECK (chunk >= 0),
      bits bit(8192) NOT NULL,
      PRIMARY KEY (month, key_id, chunk)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE usage_coverage`.execute(db);
}
