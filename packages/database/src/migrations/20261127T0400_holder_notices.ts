import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * The mails to a key's holder, each once per key, event and period: the allowance at 80% and
 * 100%, the expiry a week ahead, the revocation. A row is the claim: its primary key makes a
 * second server's insert a no-op, its state says whether the mail is due, being sent (until
 * lease_until), sent, skipped or given up after its attempts. The operator's allowance alerts
 * (usage_alerts) move here, so the CLI and the servers share one record. The holder's choice to
 * receive the allowance mails is a column of the key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE api_keys ADD COLUMN allowance_mails boolean NOT NULL DEFAULT true`.execute(db);
  await sql`
    CREATE TABLE holder_notices (
      key_id text NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
      event text NOT NULL CHECK (event IN ('allowance-80', 'allowance-100', 'expiry-soon', 'revoked')),
      period text NOT NULL CHECK (octet_length(period) BETWEEN 1 AND 40),
      state text NOT NULL CHECK (state IN ('due', 'sending', 'sent', 'skipped', 'failed')),
      category text CHECK (octet_length(category) <= 40),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 100),
      next_attempt_at timestamptz NOT NULL,
      lease_until timestamptz,
      created_at timestamptz NOT NULL,
      sent_at timestamptz,
      PRIMARY KEY (key_id, event, period)
    )`.execute(db);
  await sql`CREATE INDEX holder_notices_open ON holder_notices (next_attempt_at) WHERE state IN ('due', 'sending')`.execute(
    db,
  );
  await sql`
    INSERT INTO holder_notices (key_id, event, period, state, attempts, next_attempt_at, created_at, sent_at)
    SELECT key_id, 'allowance-' || threshold, to_char(month, 'YYYY-MM-DD"T00:00:00Z"'), 'sent', 1, sent_at, sent_at, sent_at
    FROM usage_alerts WHERE threshold IN (80, 100)`.execute(db);
  await sql`DROP TABLE usage_alerts`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE usage_alerts (
      key_id text NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
      month date NOT NULL CHECK (extract(day FROM month) = 1),
      threshold integer NOT NULL CHECK (threshold BETWEEN 1 AND 100),
      sent_at timestamptz NOT NULL,
      PRIMARY KEY (key_id, month, threshold)
    )`.execute(db);
  await sql`
    INSERT INTO usage_alerts (key_id, month, threshold, sent_at)
    SELECT key_id, left(period, 10)::date, substr(event, 11)::integer, sent_at FROM holder_notices
    WHERE event LIKE 'allowance-%' AND state = 'sent' AND period LIKE '%-01T00:00:00Z'`.execute(db);
  await sql`DROP TABLE holder_notices`.execute(db);
  await sql`ALTER TABLE api_keys DROP COLUMN allowance_mails`.execute(db);
}
