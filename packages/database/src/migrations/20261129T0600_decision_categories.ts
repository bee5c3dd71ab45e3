import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration imports nothing from the application.

/**
 * What a holder reads of the operator's decision is a category from a fixed list (the
 * application's decisionCategories), kept beside the operator's own words: a revoked key's
 * `revoked_category`, a rejected request's `rejection_category`. Rows decided before get `other`
 * (a key its holder closed: `requested-by-holder`); the revocation notices' categories, which
 * said how a key was revoked, move to the same list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE api_keys ADD COLUMN revoked_category text CHECK (octet_length(revoked_category) BETWEEN 1 AND 40)`.execute(
    db,
  );
  await sql`
    UPDATE api_keys SET revoked_category =
      CASE WHEN revoked_reason = 'closed by its holder' THEN 'requested-by-holder' ELSE 'other' END
    WHERE status = 'revoked'`.execute(db);
  await sql`ALTER TABLE key_requests ADD COLUMN rejection_category text CHECK (octet_length(rejection_category) BETWEEN 1 AND 40)`.execute(
    db,
  );
  await sql`
    UPDATE key_requests SET rejection_category =
      CASE WHEN rejection_reason = 'the key was closed before a decision' THEN 'key-closed'
           WHEN rejection_reason LIKE 'the request cannot become a key:%' THEN 'request-unusable'
           ELSE 'other' END
    WHERE status = 'rejected'`.execute(db);
  await sql`
    UPDATE holder_notices SET category =
      CASE WHEN category = 'closed-by-holder' THEN 'requested-by-holder' ELSE 'other' END
    WHERE event = 'revoked'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE holder_notices SET category =
      CASE WHEN category = 'requested-by-holder' THEN 'closed-by-holder' ELSE 'revoked-by-operator' END
    WHERE event = 'revoked'`.execute(db);
  await sql`ALTER TABLE key_requests DROP COLUMN rejection_category`.execute(db);
  await sql`ALTER TABLE api_keys DROP COLUMN revoked_category`.execute(db);
}
