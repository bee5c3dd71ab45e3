import { type Kysely, sql } from 'kysely';
import type { Database } from '@quotes/database';
import { type AskedBy, boundReached, hourlyCounts } from './hourlyBounds.js';
import type { RequestBounds } from './keyRequests.js';
import { inTransaction } from './transaction.js';
import { secondsUntilNextHour, takeUnprovenMail } from './unprovenMailBudget.js';

/** Sign-in links of the holders' page: recorded whether or not the address holds a key. */

export type SignInAdmission =
  | { readonly admitted: true }
  | {
      readonly admitted: false;
      readonly by: 'address' | 'network' | 'email' | 'mail';
      readonly retryAfterSeconds: number;
    };

/** Used and expired links are kept a day (they count towards the hourly bounds), then deleted. */
const keptMs = 86_400_000;

/**
 * Records a sign-in link unless an hourly bound refuses it (the key requests' bounds, counted
 * the same way under one lock of its own, and the hour's budget of mails to unproven addresses);
 * old links are deleted on the way. Every link recorded takes a place of the budget, whether or
 * not the address holds a key and is mailed: the answer never tells which.
 */
export async function admitSignIn(
  db: Kysely<Database>,
  asked: AskedBy & { readonly tokenHash: Buffer; readonly expiresAt: Date },
  bounds: RequestBounds,
  now: Date,
): Promise<SignInAdmission> {
  return inTransaction(db, async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('quotes:account-sign-ins'))`.execute(trx);
    await trx
      .deleteFrom('account_sign_ins')
      .where('created_at', '<', new Date(now.getTime() - keptMs))
      .execute();
    const reached = boundReached(await hourlyCounts(trx, 'account_sign_ins', asked, now), bounds, now);
    if (reached) return { admitted: false, ...reached };
    if (!(await takeUnprovenMail(trx, now, bounds.unprovenMailsPerHour)))
      return { admitted: false, by: 'mail', retryAfterSeconds: secondsUntilNextHour(now) };
    await trx
      .insertInto('account_sign_ins')
      .values({
        token_hash: asked.tokenHash,
        email: asked.email,
        client_address: asked.clientAddress,
        client_network: asked.clientNetwork,
        created_at: now,
        expires_at: asked.expiresAt,
        used_at: null,
      })
      .execute();
    return { admitted: true };
  });
}

/** Whether a link still signs in (for the page with the button), without using it. */
export async function liveSignIn(db: Kysely<Database>, tokenHash: Buffer, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('account_sign_ins')
    .select('token_hash')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** Uses a link: the canonical address it signs in, or nothing when unknown, used or expired. One statement: used once. */
export async function claimSignIn(db: Kysely<Database>, tokenHash: Buffer, now: Date): Promise<string | undefined> {
  const row = await db
    .updateTable('account_sign_ins')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('email_canonical')
    .executeTakeFirst();
  return row?.email_canonical;
}
