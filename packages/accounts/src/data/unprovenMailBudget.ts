import { type Kysely, sql } from 'kysely';
import type { Database } from '@quotes/database';

/**
 * The service-wide hourly budget of mails to addresses nobody has proved (key requests'
 * confirmation links, holders' sign-in links): a flood from fresh networks passes every
 * per-network bound, but never makes the service mail more than this to addresses of its choosing.
 */

const hourMs = 3_600_000;

/** The clock hour `now` falls in (UTC): the budget's window. */
export const hourOf = (now: Date): Date => new Date(Math.floor(now.getTime() / hourMs) * hourMs);

/** Seconds until the next clock hour, when the budget is whole again (at least 1). */
export const secondsUntilNextHour = (now: Date): number =>
  Math.max(1, Math.ceil((hourOf(now).getTime() + hourMs - now.getTime()) / 1000));

/**
 * Takes one mail of the hour's budget, or answers false when `perHour` are taken: one statement
 * that checks and adds under the hour's row lock, so servers at once never take more than the
 * budget. The INSERT branch is guarded too (a budget of 0 takes nothing). Run inside the
 * transaction that records the request, so a request refused later gives its place back.
 */
export async function takeUnprovenMail(db: Kysely<Database>, now: Date, perHour: number): Promise<boolean> {
  if (perHour <= 0) return false;
  const hour = hourOf(now);
  const taken = await db
    .insertInto('unproven_mail_hours')
    .values({ hour, mails: 1 })
    .onConflict((conflict) =>
      conflict
        .column('hour')
        .doUpdateSet({ mails: sql`unproven_mail_hours.mails + 1` })
        .where('unproven_mail_hours.mails', '<', perHour),
    )
    .returning('mails')
    .executeTakeFirst();
  // Hours past are forgotten on the way (a day kept, for the operator's look).
  if (taken?.mails === 1)
    await db
      .deleteFrom('unproven_mail_hours')
      .where('hour', '<', new Date(hour.getTime() - 24 * hourMs))
      .execute();
  return taken !== undefined;
}
