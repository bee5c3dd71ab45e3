import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '@quotes/database';
import { hourOf } from './unprovenMailBudget.js';

/** What the proof of work keeps in PostgreSQL, so every server signs and spends alike. */

/** The mails to unproven addresses taken in the clock hour `now` falls in (unprovenMailBudget.ts). */
export async function unprovenMailsTaken(db: Kysely<Database>, now: Date): Promise<number> {
  const row = await db
    .selectFrom('unproven_mail_hours')
    .select('mails')
    .where('hour', '=', hourOf(now))
    .executeTakeFirst();
  return row?.mails ?? 0;
}

/**
 * The secret named `name` that every server shares: made by the first server that asks (256
 * random bits), read by the others; two asking at once both read the one that was stored.
 */
export async function sharedSecret(db: Kysely<Database>, name: string): Promise<Buffer> {
  await db
    .insertInto('service_secrets')
    .values({ name, secret: randomBytes(32) })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('service_secrets')
    .select('secret')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.secret;
}

/**
 * Spends a solved challenge: true the first time its signature is presented, false ever after,
 * whichever server it reaches (the primary key decides, not a read before the write). Challenges
 * past their expiry are forgotten on the way: they are refused as expired before this is asked.
 */
export async function spendChallenge(
  db: Kysely<Database>,
  signature: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  const spent = await db
    .insertInto('spent_challenges')
    .values({ signature, expires_at: expiresAt })
    .onConflict((conflict) => conflict.column('signature').doNothing())
    .returning('signature')
    .executeTakeFirst();
  if (spent) await db.deleteFrom('spent_challenges').where('expires_at', '<', now).execute();
  return spent !== undefined;
}
