import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application, so the taxonomy as it
// stands today is written out below. The server compares quote_tag_layout() with the layout it
// derives from the contract and reads the stored codes only when they agree; otherwise it
// computes the codes in its query as before (see packages/server/QUOTE_READS.md). A change of
// the taxonomy therefore needs a new migration redefining both functions to be fast again,
// never to be correct.

/**
 * Each quote's tags as one integer, computed when the row is written, beside its rank in an
 * index: the taxonomy index is then read by an index-only scan of (rank, tag_code) instead of
 * a pass over every row's moods array (about 1.5 s of PostgreSQL CPU per million quotes).
 * Layout: category, length, era, faith as their 1-based position in the taxonomy lists at bit
 * 0, 6, 8, 11 (0: none), one bit per mood from bit 14.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION quote_tag_layout() RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT '{"single":[["category",["Aging & Growing Old","Art & Literature","Athletes & Sports Legends","Beauty & Aesthetics","Community & Service","Conscience & Integrity","Courage & Strength","Creativity & Innovation","Culture & Heritage","Curiosity & Wonder","Dignity & Honor","Doubt & Uncertainty","Education & Learning","Family & Parenting","Forgiveness & Letting Go","Freedom & Liberty","Friendship & Loyalty","Grief & Loss","Happiness & Peace","Hardship & Adversity","Hope & Optimism","Humor & Wit","Justice & Equality","Leadership & Business","Life & Human Nature","Loneliness & Solitude","Love & Relationships","Marriage & Partnership","Memory & Nostalgia","Mental Health & Recovery","Money & Wealth","Motivation & Success","Nature & Environment","Parenting & Children","Politics & Governance","Science & Reason","Silence & Stillness","Spirituality & Faith","Time & Mortality","Travel & Adventure","War & Conflict","Wisdom & Philosophy","Work & Purpose"],0],["length",["Short","Medium","Long"],6],["era",["Ancient","Medieval","Early Modern","Modern","Contemporary","Present"],8],["faith",["Christian","Islamic","Buddhist","Jewish","Hindu","Taoist","Confucian"],11]],"moods":["challenging","dark","humorous","inspirational","poignant","reflective","serious","uplifting"],"moodsShift":14}'::text $$`.execute(
    db,
  );
  await sql`
    CREATE FUNCTION quote_tag_code(q_category text, q_length text, q_era text, q_faith text, q_moods text[])
    RETURNS integer LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
    AS $$
    DECLARE
      categories CONSTANT text[] := '{"Aging & Growing Old","Art & Literature","Athletes & Sports Legends","Beauty & Aesthetics","Community & Service","Conscience & Integrity","Courage & Strength","Creativity & Innovation","Culture & Heritage","Curiosity & Wonder","Dignity & Honor","Doubt & Uncertainty","Education & Learning","Family & Parenting","Forgiveness & Letting Go","Freedom & Liberty","Friendship & Loyalty","Grief & Loss","Happiness & Peace","Hardship & Adversity","Hope & Optimism","Humor & Wit","Justice & Equality","Leadership & Business","Life & Human Nature","Loneliness & Solitude","Love & Relationships","Marriage & Partnership","Memory & Nostalgia","Mental Health & Recovery","Money & Wealth","Motivation & Success","Nature & Environment","Parenting & Children","Politics & Governance","Science & Reason","Silence & Stillness","Spirituality & Faith","Time & Mortality","Travel & Adventure","War & Conflict","Wisdom & Philosophy","Work & Purpose"}';
      lengths CONSTANT text[] := '{"Short","Medium","Long"}';
      eras CONSTANT text[] := '{"Ancient","Medieval","Early Modern","Modern","Contemporary","Present"}';
      faiths CONSTANT text[] := '{"Christian","Islamic","Buddhist","Jewish","Hindu","Taoist","Confucian"}';
      moods CONSTANT text[] := '{"challenging","dark","humorous","inspirational","poignant","reflective","serious","uplifting"}';
      code integer;
      mood text;
    BEGIN
      code := COALESCE(array_position(categories, q_category), 0)
        | (COALESCE(array_position(lengths, q_length), 0) << 6)
        | (COALESCE(array_position(eras, q_era), 0) << 8)
        | (COALESCE(array_position(faiths, q_faith), 0) << 11);
      FOREACH mood IN ARRAY q_moods LOOP
        code := code | COALESCE(1 << (13 + array_position(moods, mood)), 0);
      END LOOP;
      RETURN code;
    END $$`.execute(db);
  // A generated column cannot read another (length), so the length rule is applied to the text.
  await sql`
    ALTER TABLE quotes ADD COLUMN tag_code integer NOT NULL GENERATED ALWAYS AS (
      quote_tag_code(category, quotes_length(text), era, faith_tradition, moods)) STORED`.execute(db);
  await sql`CREATE INDEX quotes_rank_tag_code ON quotes (rank) INCLUDE (tag_code)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX quotes_rank_tag_code`.execute(db);
  await sql`ALTER TABLE quotes DROP COLUMN tag_code`.execute(db);
  await sql`DROP FUNCTION quote_tag_code(text, text, text, text, text[])`.execute(db);
  await sql`DROP FUNCTION quote_tag_layout()`.execute(db);
}
