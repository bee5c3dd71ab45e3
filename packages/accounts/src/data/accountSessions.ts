import type { Kysely } from 'kysely';
import type { Database } from '@quotes/database';

/** The holders' sessions, shared by every server through the database (found by the cookie's SHA-256). */

export interface AccountSessionRow {
  readonly emailCanonical: string;
  readonly csrfToken: string;
  readonly expiresAt: Date;
}

export async function insertSession(
  db: Kysely<Database>,
  session: { cookieHash: Buffer; emailCanonical: string; csrfToken: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  // Sessions past their end go on the way: the table holds the live ones and a few stale.
  await db.deleteFrom('account_sessions').where('expires_at', '<=', now).execute();
  await db
    .insertInto('account_sessions')
    .values({
      cookie_hash: session.cookieHash,
      email_canonical: session.emailCanonical,
      csrf_token: session.csrfToken,
      created_at: now,
      last_seen_at: now,
      expires_at: session.expiresAt,
    })
    .execute();
}

/**
 * The live session a cookie's hash names, its idle time renewed; none when unknown, past its
 * end or idle since `idleSince` (then deleted). One statement for a live one.
 */
export async function touchSession(
  db: Kysely<Database>,
  cookieHash: Buffer,
  now: Date,
  idleSince: Date,
): Promise<AccountSessionRow | undefined> {
  const row = await db
    .updateTable('account_sessions')
    .set({ last_seen_at: now })
    .where('cookie_hash', '=', cookieHash)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', idleSince)
    .returning(['email_canonical', 'csrf_token', 'expires_at'])
    .executeTakeFirst();
  if (!row) {
    await deleteSession(db, cookieHash);
    return undefined;
  }
  return { emailCanonical: row.email_canonical, csrfToken: row.csrf_token, expiresAt: row.expires_at };
}

export async function deleteSession(db: Kysely<Database>, cookieHash: Buffer): Promise<void> {
  await db.deleteFrom('account_sessions').where('cookie_hash', '=', cookieHash).execute();
}
