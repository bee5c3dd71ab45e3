import { type Kysely, sql } from 'kysely';
import type { Database, HolderNoticeEvent, HolderNoticeState } from '@quotes/database';
import { noticeAttempts, noticeLeaseMs, noticeRetryDelayMs } from '../domain/holderNoticeRules.js';

/**
 * The record of mails to key holders (table holder_notices). A notice is written due once (its
 * primary key: key, event, period); a sender claims it by one conditional UPDATE, so two servers
 * never hold the same notice; a failed send puts it back with a later attempt time, and a claim
 * whose sender died runs out with its lease.
 */

export interface NoticeId {
  readonly keyId: string;
  readonly event: HolderNoticeEvent;
  readonly period: string;
}

export interface NewNotice extends NoticeId {
  readonly category?: string | null;
  /** 'skipped': recorded as settled without a mail (an 80% passed by a 100%). */
  readonly state?: 'due' | 'skipped';
}

export interface ClaimedNotice extends NoticeId {
  readonly category: string | null;
  readonly attempts: number;
}

/** Writes notices that are not yet recorded; returns how many were new. */
export async function recordNotices(db: Kysely<Database>, notices: readonly NewNotice[], at: Date): Promise<number> {
  if (notices.length === 0) return 0;
  const rows = await db
    .insertInto('holder_notices')
    .values(
      notices.map((notice) => ({
        key_id: notice.keyId,
        event: notice.event,
        period: notice.period,
        state: notice.state ?? 'due',
        category: notice.category ?? null,
        next_attempt_at: at,
        created_at: at,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .returning('key_id')
    .execute();
  return rows.length;
}

/**
 * Claims up to `limit` notices due at `now` (or whose sender's lease ran out), skipping those
 * another sender holds. The rows are picked once (a materialized CTE: a subquery in FROM may be
 * run again by the plan and claim more than `limit`). `ignoreBackoff`: due now even if a failed attempt asked to wait (the
 * operator sending by hand).
 */
export async function claimNotices(
  db: Kysely<Database>,
  now: Date,
  options: { limit: number; events?: readonly HolderNoticeEvent[]; only?: NoticeId; ignoreBackoff?: boolean },
): Promise<ClaimedNotice[]> {
  const dueAt = options.ignoreBackoff ? sql`true` : sql`next_attempt_at <= ${now}`;
  const events = options.events ? sql`AND event = ANY(${[...options.events]}::text[])` : sql``;
  const only = options.only
    ? sql`AND key_id = ${options.only.keyId} AND event = ${options.only.event} AND period = ${options.only.period}`
    : sql``;
  const open = sql`((state = 'due' AND ${dueAt}) OR (state = 'sending' AND lease_until <= ${now}))`;
  const { rows } = await sql<{
    key_id: string;
    event: HolderNoticeEvent;
    period: string;
    category: string | null;
    attempts: number;
  }>`
    WITH d AS MATERIALIZED (
      SELECT key_id, event, period FROM holder_notices
      WHERE ${open} ${events} ${only}
      ORDER BY next_attempt_at LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE holder_notices n
    SET state = 'sending', attempts = n.attempts + 1, lease_until = ${new Date(now.getTime() + noticeLeaseMs)}
    FROM d
    WHERE n.key_id = d.key_id AND n.event = d.event AND n.period = d.period AND ${open}
    RETURNING n.key_id, n.event, n.period, n.category, n.attempts`.execute(db);
  return rows.map((row) => ({
    keyId: row.key_id,
    event: row.event,
    period: row.period,
    category: row.category,
    attempts: row.attempts,
  }));
}

/**
 * The claim a sender holds: its attempt number fences it, so a sender whose lease ran out (and
 * whose notice another sender claimed again) can no longer change the notice.
 */
const whereClaim = (notice: ClaimedNotice) =>
  sql<boolean>`key_id = ${notice.keyId} AND event = ${notice.event} AND period = ${notice.period} AND state = 'sending' AND attempts = ${notice.attempts}`;

/** Ends a claim: sent, or skipped (nothing to say any more: the key was revoked, the mails turned off). */
export async function settleNotice(
  db: Kysely<Database>,
  notice: ClaimedNotice,
  state: 'sent' | 'skipped',
  at: Date,
): Promise<void> {
  await db
    .updateTable('holder_notices')
    .set({ state, sent_at: state === 'sent' ? at : null, lease_until: null })
    .where(whereClaim(notice))
    .execute();
}

/** A send failed: due again after the attempt's delay, or failed for good after the last attempt. */
export async function releaseNotice(db: Kysely<Database>, notice: ClaimedNotice, at: Date): Promise<'due' | 'failed'> {
  const state = notice.attempts >= noticeAttempts ? 'failed' : 'due';
  await db
    .updateTable('holder_notices')
    .set({ state, lease_until: null, next_attempt_at: new Date(at.getTime() + noticeRetryDelayMs(notice.attempts)) })
    .where(whereClaim(notice))
    .execute();
  return state;
}

/** The allowance notices of some keys' periods, by key: each event with its state. */
export async function allowanceNoticesOf(
  db: Kysely<Database>,
  periods: readonly { keyId: string; period: string }[],
): Promise<Map<string, Map<HolderNoticeEvent, HolderNoticeState>>> {
  const found = new Map<string, Map<HolderNoticeEvent, HolderNoticeState>>();
  if (periods.length === 0) return found;
  const { rows } = await sql<{ key_id: string; event: HolderNoticeEvent; state: HolderNoticeState }>`
    SELECT key_id, event, state FROM holder_notices
    WHERE event IN ('allowance-80', 'allowance-100')
      AND (key_id, period) IN (SELECT * FROM unnest(${periods.map((p) => p.keyId)}::text[], ${periods.map((p) => p.period)}::text[]))`.execute(
    db,
  );
  for (const row of rows) {
    const events = found.get(row.key_id) ?? new Map();
    events.set(row.event, row.state);
    found.set(row.key_id, events);
  }
  return found;
}

/** Turns a key's allowance mails (80% and 100%) on or off; false when there is no such key. */
export async function setAllowanceMails(db: Kysely<Database>, keyId: string, on: boolean): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ allowance_mails: on })
    .where('id', '=', keyId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether a key's holder gets the allowance mails; undefined when there is no such key. */
export async function allowanceMailsOn(db: Kysely<Database>, keyId: string): Promise<boolean | undefined> {
  const row = await db.selectFrom('api_keys').select('allowance_mails').where('id', '=', keyId).executeTakeFirst();
  return row?.allowance_mails;
}

/** The keys among `keyIds` whose holders turned the allowance mails off. */
export async function allowanceMailsOff(db: Kysely<Database>, keyIds: readonly string[]): Promise<Set<string>> {
  if (keyIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('api_keys')
    .select('id')
    .where('id', 'in', [...keyIds])
    .where('allowance_mails', '=', false)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * Calls counted for each key over its allowance period: the counter's monthly rows from the
 * period's first month to the last one that starts before its end (a trial's 30 days span two;
 * a calendar month is one), as callsInPeriod adds them for one key.
 */
export async function callsInPeriods(
  db: Kysely<Database>,
  periods: readonly { keyId: string; start: Date; end: Date }[],
): Promise<Map<string, number>> {
  if (periods.length === 0) return new Map();
  const { rows } = await sql<{ key_id: string; calls: string }>`
    SELECT p.key_id, sum(u.calls)::text AS calls
    FROM unnest(${periods.map((p) => p.keyId)}::text[], ${periods.map((p) => p.start.toISOString())}::timestamptz[],
                ${periods.map((p) => p.end.toISOString())}::timestamptz[]) AS p(key_id, period_start, period_end)
    JOIN monthly_usage u ON u.key_id = p.key_id
      AND u.month >= date_trunc('month', p.period_start AT TIME ZONE 'UTC')::date
      AND u.month < p.period_end AT TIME ZONE 'UTC'
    GROUP BY p.key_id`.execute(db);
  return new Map(rows.map((row) => [row.key_id, Number(row.calls)]));
}
