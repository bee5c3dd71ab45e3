import type { Kysely } from 'kysely';
import type { Database } from '@quotes/database';
import { recordNotices } from '../data/holderNotices.js';
import { isoSeconds } from '../domain/calendarMonth.js';
import type { DecisionCategory } from '../domain/decisionCategories.js';

/** The holders' revocation mails, due from `at`: written by the revocation, in its transaction. */
export function recordRevocationNotices(
  db: Kysely<Database>,
  keys: readonly { readonly id: string; readonly email: string | null }[],
  at: Date,
  category: DecisionCategory,
): Promise<number> {
  return recordNotices(
    db,
    keys
      .filter((key) => key.email !== null)
      .map((key) => ({ keyId: key.id, event: 'revoked' as const, period: isoSeconds(at), category })),
    at,
  );
}
