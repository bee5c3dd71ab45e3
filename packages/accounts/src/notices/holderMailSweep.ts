import type { Kysely } from 'kysely';
import type { Database } from '@quotes/database';
import { findKeyById } from '../data/apiKeys.js';
import {
  allowanceMailsOff,
  type ClaimedNotice,
  claimNotices,
  recordNotices,
  releaseNotice,
  settleNotice,
} from '../data/holderNotices.js';
import { findKeys } from '../data/keyOwners.js';
import { isoSeconds } from '../domain/calendarMonth.js';
import type { Clock } from '../domain/clock.js';
import { expiryNoticeDue } from '../domain/holderNoticeRules.js';
import { keyStanding } from '../domain/keyStanding.js';
import { expiryNoticeMessage, revocationMessage, usageAlertMessage } from '../mail/holderMessages.js';
import type { MailMessage, Mailer } from '../mail/mailer.js';
import { alertOf, allowanceNoticesOf, standingsOf } from './allowanceStandings.js';

/**
 * The mails to key holders, sent by every server in turns (sweeps): find the notices that fell
 * due, claim a batch, send each, record the outcome. Any number of servers may sweep at once:
 * a notice is written once and claimed by one sender (data/holderNotices.ts).
 */

export interface HolderMailSettings {
  readonly mailer: Mailer;
  /** Links in the mails start here (PUBLIC_BASE_URL). */
  readonly publicBaseUrl: string;
  /** How the holder of a revoked key reaches the operator (OPERATOR_EMAIL). */
  readonly operatorEmail?: string;
  readonly clock: Clock;
  /** Notices sent per sweep at most (default 50): a sweep's length stays bounded by the mailer's deadline. */
  readonly batch?: number;
  /** Asked before each send: true ends the sweep there (the server is shutting down). */
  readonly stopping?: () => boolean;
}

/** What a sweep did, in counts only (no address ever reaches a log). */
export interface HolderMailOutcome {
  recorded: number;
  sent: number;
  skipped: number;
  retrying: number;
  failed: number;
  /** The waiting requests a notice to the operator counted (0: none sent; notices/operatorNotices.ts). */
  waitingNoticed: number;
}

/** Records the allowance and expiry notices due at `now` (revocations are recorded with the revocation). */
export async function recordDueNotices(db: Kysely<Database>, now: Date): Promise<number> {
  const active = (await findKeys(db, { state: 'active' }, now)).filter((record) => record.email !== null);
  const off = await allowanceMailsOff(
    db,
    active.map((record) => record.id),
  );
  const standings = await standingsOf(
    db,
    active.filter((record) => !off.has(record.id)),
    () => now,
  );
  const notices = [
    ...standings.flatMap((standing) =>
      standing.threshold === undefined
        ? []
        : allowanceNoticesOf(standing.record.id, standing.threshold, standing.period.start),
    ),
    ...active
      .filter((record) => expiryNoticeDue(record.expiresAt, now))
      .map((record) => ({ keyId: record.id, event: 'expiry-soon' as const, period: isoSeconds(record.expiresAt!) })),
  ];
  return recordNotices(db, notices, now);
}

/** The mail a claimed notice sends, or undefined when there is nothing to say any more. */
export async function noticeMessage(
  db: Kysely<Database>,
  notice: ClaimedNotice,
  settings: HolderMailSettings,
  now: Date,
): Promise<MailMessage | undefined> {
  const record = await findKeyById(db, notice.keyId);
  if (!record?.email) return undefined;
  const key = {
    id: record.id,
    prefix: record.keyPrefix,
    client: record.client,
    plan: record.plan.id,
    email: record.email,
  };
  if (notice.event === 'revoked') {
    return revocationMessage(key, notice.period, notice.category, settings.operatorEmail, settings.publicBaseUrl);
  }
  if (keyStanding(record, now) !== 'active') return undefined;
  if (notice.event === 'expiry-soon') {
    // Renewed meanwhile: the notice was of an expiry that no longer holds.
    if (record.expiresAt === null || isoSeconds(record.expiresAt) !== notice.period) return undefined;
    return expiryNoticeMessage(key, notice.period, settings.publicBaseUrl);
  }
  if ((await allowanceMailsOff(db, [record.id])).size > 0) return undefined;
  const [standing] = await standingsOf(db, [record], () => new Date(notice.period));
  const threshold = notice.event === 'allowance-100' ? 100 : 80;
  if (!standing) return undefined;
  return usageAlertMessage(
    alertOf({ ...standing, threshold }, now, { sent: false, mails: true }),
    settings.publicBaseUrl,
  );
}

/** Sends one claimed notice and records the outcome; a failed send is released for a later attempt. */
export async function deliverNotice(
  db: Kysely<Database>,
  notice: ClaimedNotice,
  settings: HolderMailSettings,
): Promise<'sent' | 'skipped' | 'due' | 'failed'> {
  let message: MailMessage | undefined;
  try {
    message = await noticeMessage(db, notice, settings, settings.clock());
    if (message === undefined) {
      await settleNotice(db, notice, 'skipped', settings.clock());
      return 'skipped';
    }
    await settings.mailer.send(message);
  } catch {
    return releaseNotice(db, notice, settings.clock());
  }
  await settleNotice(db, notice, 'sent', settings.clock());
  return 'sent';
}

/**
 * One sweep: record what fell due, then send up to `batch` notices, claiming each just before
 * its send (its lease then only has to outlast one send's deadline). The first failed send ends
 * the sweep: a mail server that is down is not asked again until the next sweep.
 */
export async function sweepHolderMail(db: Kysely<Database>, settings: HolderMailSettings): Promise<HolderMailOutcome> {
  const outcome: HolderMailOutcome = { recorded: 0, sent: 0, skipped: 0, retrying: 0, failed: 0, waitingNoticed: 0 };
  outcome.recorded = await recordDueNotices(db, settings.clock());
  for (let sends = 0; sends < (settings.batch ?? 50); sends += 1) {
    if (settings.stopping?.()) break;
    const [notice] = await claimNotices(db, settings.clock(), { limit: 1 });
    if (notice === undefined) break;
    const result = await deliverNotice(db, notice, settings);
    if (result === 'sent') outcome.sent += 1;
    else if (result === 'skipped') outcome.skipped += 1;
    else {
      if (result === 'due') outcome.retrying += 1;
      else outcome.failed += 1;
      break;
    }
  }
  return outcome;
}
