import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * The operator's actions, append-only: a trigger refuses UPDATE and DELETE of any row, and
 * TRUNCATE of the table, whoever asks (the owner included, unlike a missing privilege).
 * `before` and `after` are JSON views of the target that never hold a secret or a key hash.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE operator_audit (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      at timestamptz NOT NULL DEFAULT now(),
      actor text NOT NULL CHECK (octet_length(actor) BETWEEN 1 AND 200),
      action text NOT NULL CHECK (octet_length(action) BETWEEN 1 AND 100),
      target text NOT NULL CHECK (octet_length(target) BETWEEN 1 AND 500),
      key_id text,
      before jsonb,
      after jsonb,
      reason text CHECK (octet_length(reason) <= 2000)
    )`.execute(db);
  await sql`CREATE INDEX operator_audit_key ON operator_audit (key_id, at) WHERE key_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX operator_audit_at ON operator_audit (at)`.execute(db);
  await sql`
    CREATE FUNCTION operator_audit_append_only() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'operator_audit is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER operator_audit_no_change BEFORE UPDATE OR DELETE ON operator_audit
    FOR EACH ROW EXECUTE FUNCTION operator_audit_append_only()`.execute(db);
  await sql`
    CREATE TRIGGER operator_audit_no_truncate BEFORE TRUNCATE ON operator_audit
    FOR EACH STATEMENT EXECUTE FUNCTION operator_audit_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE operator_audit`.execute(db);
  await sql`DROP FUNCTION operator_audit_append_only()`.execute(db);
}
