import type { Database } from '@quotes/database';
import { newSecret, secretDigest } from '@quotes/service-base';
import type { Kysely } from 'kysely';

/** How long a sign-in link made for the console works, unused. */
export const signInLinkLifetimeMs = 15 * 60_000;

const tokenHash = secretDigest;

/**
 * Records a new single-use sign-in token (its hash only) and returns the token. Any console
 * over this database takes it: the one running, or one started later.
 */
export async function createSignInLink(db: Kysely<Database>, now: Date): Promise<string> {
  const token = newSecret();
  // Links long expired or used are no use to anyone: dropped as new ones are made.
  await db
    .deleteFrom('console_sign_in_links')
    .where('expires_at', '<', new Date(now.getTime() - signInLinkLifetimeMs))
    .execute();
  await db
    .insertInto('console_sign_in_links')
    .values({
      token_hash: tokenHash(token),
      created_at: now,
      expires_at: new Date(now.getTime() + signInLinkLifetimeMs),
      used_at: null,
    })
    .execute();
  return token;
}

/**
 * Uses a token, once: one statement marks it used only if it is unused and unexpired, so two
 * browsers opening the same link at once get one session between them.
 */
export async function takeSignInLink(db: Kysely<Database>, token: string, now: Date): Promise<boolean> {
  if (token === '' || token.length > 200) return false;
  const taken = await db
    .updateTable('console_sign_in_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('token_hash')
    .executeTakeFirst();
  return taken !== undefined;
}
