import { type Kysely, sql } from 'kysely';
import type { Database } from '@quotes/database';
import type { Clock } from '../domain/clock.js';
import { requestsWaitingMessage } from '../mail/keyRequestMessages.js';
import type { Mailer } from '../mail/mailer.js';

/** At most one "requests wait" notice per this many minutes, whatever the number of servers (decision 0046). */
export const requestsWaitingIntervalMinutes = 15;

export interface OperatorNoticeSettings {
  readonly mailer: Mailer;
  /** OPERATOR_EMAIL; unset, no notice is sent. */
  readonly operatorEmail?: string;
  readonly clock: Clock;
}

/**
 * Mails OPERATOR_EMAIL when requests started waiting since the last notice and that notice is at
 * least the interval old. The notice's row in operator_notices is locked for the decision and
 * the send (other servers skip it), and its time moves only once the mail was handed over: two
 * servers sweeping at once send one mail, and a failed send is tried again at the next sweep.
 * Returns the number of requests the mail counted, or 0 when none was sent.
 */
export async function noticeWaitingRequests(db: Kysely<Database>, settings: OperatorNoticeSettings): Promise<number> {
  const to = settings.operatorEmail;
  if (to === undefined) return 0;
  const now = settings.clock();
  return db.transaction().execute(async (trx) => {
    const due = await sql<{ waiting: string }>`
      SELECT (SELECT count(*) FROM key_requests WHERE status = 'pending') AS waiting
      FROM operator_notices n
      WHERE n.kind = 'requests-waiting'
        AND n.sent_at <= ${now}::timestamptz - make_interval(mins => ${requestsWaitingIntervalMinutes}::int)
        AND EXISTS (SELECT 1 FROM key_requests r WHERE r.status = 'pending' AND r.confirmed_at > n.sent_at)
      FOR UPDATE OF n SKIP LOCKED`.execute(trx);
    const waiting = Number(due.rows[0]?.waiting ?? 0);
    if (waiting === 0) return 0;
    await settings.mailer.send(requestsWaitingMessage(to, waiting, requestsWaitingIntervalMinutes));
    await trx.updateTable('operator_notices').set({ sent_at: now }).where('kind', '=', 'requests-waiting').execute();
    return waiting;
  });
}
