import { type Kysely, sql } from 'kysely';
import type { Database } from '@quotes/database';
import type { ActionWindow, HolderAction } from '../domain/holderActionBounds.js';

/** Whose places: the action, the key it is about, and the holder (their audit actor). */
export interface PlaceTaker {
  readonly action: HolderAction;
  readonly keyId: string;
  readonly holder: string;
}

const scopeOf = (taker: PlaceTaker, window: ActionWindow) =>
  window.bound.scope === 'key' ? `key:${taker.keyId}` : taker.holder;

/**
 * Takes one place in each window (table holder_action_windows), in a short transaction of its
 * own: one upsert per window adds 1 only while the count is under the bound, so the row's lock
 * decides between two actions at once and no check can be overtaken by a write. The lock is held
 * for these few statements only, not for the action: a flood is refused at once rather than
 * queued behind the key's lock with a connection each. The places are taken in the order given
 * (the key's windows before the holder's, the same in every transaction, so none waits on
 * another crosswise); the first window that is full is returned and nothing is taken.
 */
export function takeActionPlaces(
  db: Kysely<Database>,
  taker: PlaceTaker,
  windows: readonly ActionWindow[],
  now: Date,
): Promise<ActionWindow | undefined> {
  return db
    .transaction()
    .execute(async (trx) => {
      // Windows that are over go, those of these scopes only; rows another transaction holds are
      // left to the next action (SKIP LOCKED: a clean-up never waits, so it never deadlocks).
      await sql`
      DELETE FROM holder_action_windows
      WHERE (scope, action, window_seconds, window_start) IN (
        SELECT scope, action, window_seconds, window_start FROM holder_action_windows
        WHERE scope IN (${`key:${taker.keyId}`}, ${taker.holder})
          AND window_start + window_seconds * interval '1 second' <= ${now}
        FOR UPDATE SKIP LOCKED)`.execute(trx);
      for (const window of windows) {
        const place = await trx
          .insertInto('holder_action_windows')
          .values({
            scope: scopeOf(taker, window),
            action: taker.action,
            window_seconds: window.windowSeconds,
            window_start: window.start,
            actions: 1,
          })
          .onConflict((oc) =>
            oc
              .columns(['scope', 'action', 'window_seconds', 'window_start'])
              .doUpdateSet({ actions: sql`holder_action_windows.actions + 1` })
              .where('holder_action_windows.actions', '<', window.bound.atMost),
          )
          .returning('actions')
          .executeTakeFirst();
        // Thrown to roll back: the places taken before this one go with it.
        if (!place) throw new WindowFull(window);
      }
      return undefined;
    })
    .catch((error: unknown) => {
      if (error instanceof WindowFull) return error.window;
      throw error;
    });
}

class WindowFull extends Error {
  constructor(readonly window: ActionWindow) {
    super('window full');
  }
}

/**
 * Gives back the places of an action that was not done (refused by a rule, or failed). One
 * statement per window, each on its own: each holds one row at a time, so a give-back never
 * waits crosswise with a taking.
 */
export async function giveBackActionPlaces(
  db: Kysely<Database>,
  taker: PlaceTaker,
  windows: readonly ActionWindow[],
): Promise<void> {
  for (const window of windows)
    await db
      .updateTable('holder_action_windows')
      .set({ actions: sql`actions - 1` })
      .where('scope', '=', scopeOf(taker, window))
      .where('action', '=', taker.action)
      .where('window_seconds', '=', window.windowSeconds)
      .where('window_start', '=', window.start)
      .where('actions', '>', 0)
      .execute();
}
