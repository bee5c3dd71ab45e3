import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * Each quote carries its own JSON, as the contract's Quote and QuoteSummary, computed by the
 * database whenever the row is written. Building it per request cost PostgreSQL about 0.8 ms of
 * CPU for a page of 100 (seven to_json calls a row); reading it stored costs about 0.15 ms.
 *
 * Generated columns need immutable expressions, and to_json() and array_to_string() are only
 * stable in general (for types whose output depends on settings); on text they depend on
 * nothing, so each JSON is built by one function declared immutable. One PL/pgSQL function per
 * column rather than a small SQL helper per field: an immutable SQL function whose body calls a
 * stable one is never inlined, and sixteen such calls a row made loading 1,500,000 quotes three
 * times slower. The length rule moves into one (inlinable) function used by the length column,
 * re-created on it, and by the JSON, so the rule is written once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION quotes_length(quote_text text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT CASE WHEN char_length(quote_text) < 100 THEN 'Short' WHEN char_length(quote_text) <= 200 THEN 'Medium' ELSE 'Long' END $$`.execute(
    db,
  );
  // Property order follows the contract's schemas; to_json(text) is JSON string escaping.
  await sql`
    CREATE FUNCTION quotes_summary_json(q_id text, q_text text, q_author text, q_category text, q_moods text[], q_era text)
    RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    AS $$ BEGIN
      RETURN '{"id":' || to_json(q_id)::text || ',"text":' || to_json(q_text)::text || ',"author":' || to_json(q_author)::text
        || ',"category":' || to_json(q_category)::text || ',"mood":' || to_json(array_to_string(q_moods, ','))::text
        || ',"era":' || to_json(q_era)::text || ',"length":' || to_json(quotes_length(q_text))::text || '}';
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION quotes_quote_json(q_id text, q_text text, q_author text, q_category text, q_secondary_category text,
                                      q_moods text[], q_era text, q_faith_tradition text)
    RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    AS $$ BEGIN
      RETURN '{"id":' || to_json(q_id)::text || ',"text":' || to_json(q_text)::text || ',"author":' || to_json(q_author)::text
        || ',"category":' || to_json(q_category)::text
        || ',"secondary_category":' || COALESCE(to_json(q_secondary_category)::text, 'null')
        || ',"mood":' || to_json(array_to_string(q_moods, ','))::text || ',"era":' || to_json(q_era)::text
        || ',"length":' || to_json(quotes_length(q_text))::text
        || ',"faith_tradition":' || COALESCE(to_json(q_faith_tradition)::text, 'null') || '}';
    END $$`.execute(db);

  await sql`DROP INDEX quotes_length_rank`.execute(db);
  await sql`ALTER TABLE quotes DROP COLUMN length`.execute(db);
  await sql`ALTER TABLE quotes ADD COLUMN length text NOT NULL GENERATED ALWAYS AS (quotes_length(text)) STORED`.execute(
    db,
  );
  await sql`CREATE INDEX quotes_length_rank ON quotes (length, rank)`.execute(db);
  await sql`
    ALTER TABLE quotes
      ADD COLUMN quote_json text NOT NULL GENERATED ALWAYS AS (
        quotes_quote_json(id, text, author, category, secondary_category, moods, era, faith_tradition)) STORED,
      ADD COLUMN summary_json text NOT NULL GENERATED ALWAYS AS (
        quotes_summary_json(id, text, author, category, moods, era)) STORED`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE quotes DROP COLUMN quote_json, DROP COLUMN summary_json`.execute(db);
  await sql`DROP INDEX quotes_length_rank`.execute(db);
  await sql`ALTER TABLE quotes DROP COLUMN length`.execute(db);
  await sql`
    ALTER TABLE quotes ADD COLUMN length text NOT NULL GENERATED ALWAYS AS (
      CASE WHEN char_length(text) < 100 THEN 'Short' WHEN char_length(text) <= 200 THEN 'Medium' ELSE 'Long' END) STORED`.execute(
    db,
  );
  await sql`CREATE INDEX quotes_length_rank ON quotes (length, rank)`.execute(db);
  await sql`DROP FUNCTION quotes_quote_json(text, text, text, text, text, text[], text, text)`.execute(db);
  await sql`DROP FUNCTION quotes_summary_json(text, text, text, text, text[], text)`.execute(db);
  await sql`DROP FUNCTION quotes_length(text)`.execute(db);
}
