import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import type { Database, KeyRequestStatus, KeyRequestsTable } from '@quotes/database';
import { boundReached, hourlyCounts, secondsUntilFree } from './hourlyBounds.js';
import { inTransaction } from './transaction.js';
import { secondsUntilNextHour, takeUnprovenMail } from './unprovenMailBudget.js';

/** Requests for a key (the public form) and the bounds that keep a flood from filling the table. */

export type KeyRequestRow = Selectable<KeyRequestsTable>;

export interface NewKeyRequest {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly application: string;
  readonly planId: string;
  readonly use: string;
  readonly clientAddress: string;
  readonly clientNetwork: string;
  /** The block the client's network lies in (IPv4 /24, IPv6 /48): see domain/clientNetwork.ts. */
  readonly clientSite: string;
  readonly tokenHash: Buffer;
  readonly tokenExpiresAt: Date;
  /**
   * The hidden field was filled: recorded and counted like any request, so a robot meets the
   * same bounds and answers, but with no token, so it can never be confirmed (it expires).
   */
  readonly trapped: boolean;
}

export interface RequestBounds {
  /** Requests recorded in the last hour from one client address. */
  readonly perAddressPerHour: number;
  /** Requests recorded in the last hour from one client network (IPv4 /24, IPv6 /56). */
  readonly perNetworkPerHour: number;
  /** Requests recorded in the last hour for one person (canonical address). */
  readonly perEmailPerHour: number;
  /**
   * Requests recorded in the last hour from everyone before the service counts as busy; while
   * busy, a site (IPv4 /24, IPv6 /48) gets one request an hour, so a flood from some networks
   * leaves every other network its first request.
   */
  readonly perHour: number;
  /** Unconfirmed and pending requests kept at most; beyond it the oldest unconfirmed is dropped. */
  readonly maxOpen: number;
  /**
   * Mails to addresses nobody has proved, per clock hour for the whole service (confirmation and
   * sign-in links together): past it a request is refused, never mailed (unprovenMailBudget.ts).
   */
  readonly unprovenMailsPerHour: number;
}

export type Admission =
  | { readonly admitted: true }
  | {
      readonly admitted: false;
      readonly by: 'address' | 'network' | 'email' | 'busy' | 'queue' | 'mail';
      readonly retryAfterSeconds: number;
    };

/** Why a robot's request waits for nothing: what the operator reads beside it. */
export const trappedReason = 'the hidden field only robots fill was filled: never mailed, never confirmable';

/** Expired requests stay visible to the operator this long, then are deleted. */
const expiredKeptMs = 7 * 86_400_000;

/**
 * Records a request unless a bound refuses it, in one transaction under one advisory lock (two
 * requests at once cannot both take the last place): unconfirmed requests past their token's
 * life become expired and old expired ones are deleted, the hourly bounds are counted (address,
 * network, person; then, past the service-wide number, one per site), the hour's budget of
 * mails to unproven addresses is taken (a robot's trapped request takes its place too, so its
 * answer is the same), and when the open requests are at their cap the oldest unconfirmed ones
 * make room.
 */
export async function admitKeyRequest(
  db: Kysely<Database>,
  request: NewKeyRequest,
  bounds: RequestBounds,
  now: Date,
): Promise<Admission> {
  return inTransaction(db, async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('quotes:key-requests'))`.execute(trx);
    await expireUnconfirmed(trx, now);
    const hour = await hourlyCounts(
      trx,
      'key_requests',
      {
        clientAddress: request.clientAddress,
        clientNetwork: request.clientNetwork,
        clientSite: request.clientSite,
        email: request.email,
      },
      now,
    );
    const reached = boundReached(hour, bounds, now);
    if (reached) return { admitted: false, ...reached };
    if (hour.everyone.count >= bounds.perHour) {
      const site = hour.site;
      if (site.count > 0) return { admitted: false, by: 'busy', retryAfterSeconds: secondsUntilFree(site.oldest, now) };
    }
    if (!(await takeUnprovenMail(trx, now, bounds.unprovenMailsPerHour)))
      return { admitted: false, by: 'mail', retryAfterSeconds: secondsUntilNextHour(now) };
    const open = await trx
      .selectFrom('key_requests')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', 'in', ['unconfirmed', 'pending'])
      // The cap keeps strangers' requests from filling the table; holders' requests are one per key.
      .where('kind', '=', 'key')
      .executeTakeFirstOrThrow();
    const excess = Number(open.n) - bounds.maxOpen + 1;
    if (excess > 0) {
      const dropped = await trx
        .deleteFrom('key_requests')
        .where(
          'id',
          'in',
          trx
            .selectFrom('key_requests')
            .select('id')
            .where('status', '=', 'unconfirmed')
            .orderBy('created_at')
            .orderBy('id')
            .limit(excess),
        )
        // Checked again on the row itself: one confirmed meanwhile (its lock waited for) stays.
        .where('status', '=', 'unconfirmed')
        .executeTakeFirst();
      if (Number(dropped.numDeletedRows) < excess) return { admitted: false, by: 'queue', retryAfterSeconds: 3600 };
    }
    await trx
      .insertInto('key_requests')
      .values({
        id: request.id,
        email: request.email,
        name: request.name,
        application: request.application,
        plan_id: request.planId,
        use: request.use,
        client_address: request.clientAddress,
        client_network: request.clientNetwork,
        status: 'unconfirmed',
        reasons: request.trapped ? [trappedReason] : [],
        token_hash: request.trapped ? null : request.tokenHash,
        token_expires_at: request.tokenExpiresAt,
        created_at: now,
      })
      .execute();
    return { admitted: true };
  });
}

/** Unconfirmed requests past their token's life become expired (the token forgotten); expired ones older than a week go. */
export async function expireUnconfirmed(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .updateTable('key_requests')
    .set({ status: 'expired', token_hash: null })
    .where('status', '=', 'unconfirmed')
    .where('token_expires_at', '<=', now)
    .execute();
  await db
    .deleteFrom('key_requests')
    .where('status', '=', 'expired')
    .where('token_expires_at', '<=', new Date(now.getTime() - expiredKeptMs))
    .execute();
}

/** A token that still confirms: its request unconfirmed, its 24 hours not over. */
const liveToken = (tokenHash: Buffer, now: Date) => (eb: ExpressionBuilder<Database, 'key_requests'>) =>
  eb.and([eb('token_hash', '=', tokenHash), eb('status', '=', 'unconfirmed'), eb('token_expires_at', '>', now)]);

/** The unconfirmed request a live token belongs to (the confirmation page), without using the token. */
export async function findByLiveToken(
  db: Kysely<Database>,
  tokenHash: Buffer,
  now: Date,
): Promise<KeyRequestRow | undefined> {
  return db.selectFrom('key_requests').selectAll().where(liveToken(tokenHash, now)).executeTakeFirst();
}

/**
 * Uses a token: the one request it confirms, now `pending` and its token forgotten, or nothing
 * when the token is unknown, used or expired. One statement, so a token confirms at most once.
 */
export async function claimToken(
  db: Kysely<Database>,
  tokenHash: Buffer,
  now: Date,
): Promise<KeyRequestRow | undefined> {
  return db
    .updateTable('key_requests')
    .set({ status: 'pending', token_hash: null, confirmed_at: now })
    .where(liveToken(tokenHash, now))
    .returningAll()
    .executeTakeFirst();
}

/** The latest approved trial of a network since a date (one trial per network). */
export async function networkTrialSince(
  db: Kysely<Database>,
  network: string,
  planId: string,
  since: Date,
  exceptId: string,
): Promise<KeyRequestRow | undefined> {
  return db
    .selectFrom('key_requests')
    .selectAll()
    .where('status', '=', 'approved')
    .where('kind', '=', 'key')
    .where('plan_id', '=', planId)
    .where('client_network', '=', sql<string>`${network}::cidr`)
    .where('decided_at', '>', since)
    .where('id', '!=', exceptId)
    .orderBy('decided_at', 'desc')
    .executeTakeFirst();
}

export async function setWaitingReasons(db: Kysely<Database>, id: string, reasons: readonly string[]): Promise<void> {
  await db
    .updateTable('key_requests')
    .set({ reasons: [...reasons] })
    .where('id', '=', id)
    .execute();
}

/** Settles a pending request; false when it was no longer pending (settled meanwhile). */
export async function settleRequest(
  db: Kysely<Database>,
  id: string,
  outcome:
    | { readonly status: 'approved'; readonly keyId: string; readonly planId: string }
    | { readonly status: 'rejected'; readonly category: string; readonly reason: string | null },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('key_requests')
    .set(
      outcome.status === 'approved'
        ? { status: 'approved', key_id: outcome.keyId, plan_id: outcome.planId, decided_at: now }
        : {
            status: 'rejected',
            rejection_category: outcome.category,
            rejection_reason: outcome.reason,
            decided_at: now,
          },
    )
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findKeyRequest(db: Kysely<Database>, id: string): Promise<KeyRequestRow | undefined> {
  return db.selectFrom('key_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listKeyRequests(
  db: Kysely<Database>,
  status: KeyRequestStatus | undefined,
  now: Date,
): Promise<KeyRequestRow[]> {
  await expireUnconfirmed(db, now);
  let query = db.selectFrom('key_requests').selectAll();
  if (status !== undefined) query = query.where('status', '=', status);
  return query.orderBy('created_at').orderBy('id').execute();
}
