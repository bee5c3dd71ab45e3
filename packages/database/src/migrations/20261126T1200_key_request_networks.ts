import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * Key requests are bounded per client network (/24, /56) and per hour from everyone, counted
 * under one lock on every post: both counts read an index rather than the whole table, which
 * holds every request of the last week (expired ones included) after a flood.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX key_requests_network_created ON key_requests (client_network, created_at)`.execute(db);
  await sql`CREATE INDEX key_requests_created ON key_requests (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX key_requests_created`.execute(db);
  await sql`DROP INDEX key_requests_network_created`.execute(db);
}
