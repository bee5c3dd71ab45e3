import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application. Taxonomy values are
// validated against the contract by the loaders, so they are not repeated here as CHECKs.

export async function up(db: Kysely<unknown>): Promise<void> {
  // length follows the text, counted in characters (the database is UTF-8, so char_length
  // counts code points): it can never be stored by hand.
  await sql`
    CREATE TABLE quotes (
      id text PRIMARY KEY CHECK (id ~ '^q_[A-Za-z0-9]+$'),
      rank integer NOT NULL CHECK (rank >= 0),
      text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 5000),
      author text NOT NULL CHECK (char_length(author) BETWEEN 1 AND 300),
      category text NOT NULL,
      secondary_category text CHECK (secondary_category IS DISTINCT FROM category),
      moods text[] NOT NULL CHECK (cardinality(moods) BETWEEN 1 AND 8),
      era text NOT NULL,
      length text NOT NULL GENERATED ALWAYS AS (
        CASE WHEN char_length(text) < 100 THEN 'Short'
             WHEN char_length(text) <= 200 THEN 'Medium'
             ELSE 'Long' END) STORED,
      faith_tradition text,
      score real NOT NULL CHECK (score >= 0)
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX quotes_rank_key ON quotes (rank)`.execute(db);
  await sql`CREATE INDEX quotes_category_rank ON quotes (category, rank)`.execute(db);
  await sql`CREATE INDEX quotes_era_rank ON quotes (era, rank)`.execute(db);
  await sql`CREATE INDEX quotes_length_rank ON quotes (length, rank)`.execute(db);
  await sql`CREATE INDEX quotes_faith_rank ON quotes (faith_tradition, rank) WHERE faith_tradition IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX quotes_moods ON quotes USING gin (moods)`.execute(db);

  await sql`
    CREATE TABLE corpus_state (
      id integer PRIMARY KEY CHECK (id = 1),
      version integer NOT NULL DEFAULT 0,
      source text NOT NULL,
      seed integer,
      size integer NOT NULL CHECK (size >= 0),
      loaded_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE corpus_state`.execute(db);
  await sql`DROP TABLE quotes`.execute(db);
}
