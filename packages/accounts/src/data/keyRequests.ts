import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import type { Database, KeyRequestStatus, KeyRequestsTable } from '@quotes/database';
import { inTransaction } from './transaction.js';

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
  readonly tokenHash: Buffer;
  readonly tokenExpiresAt: Date;
}

export interface RequestBounds {
  /** Requests recorded in the last hour from one client address. */
  readonly perAddressPerHour: number;
  /** Requests recorded in the last hour for one person (canonical address). */
  readonly perEmailPerHour: number;
  /** Requests recorded in the last hour from everyone. */
  readonly perHour: number;
  /** Unconfirmed and pending requests kept at most; beyond it the oldest unconfirmed is dropped. */
  readonly maxOpen: number;
}

export type Admission =
  | { readonly admitted: true }
  | {
      readonly admitted: false;
      readonly by: 'address' | 'email' | 'everyone' | 'queue';
      readonly retryAfterSeconds: number;
    };

const hourMs = 3_600_000;
/** Expired requests stay visible to the operator this long, then are deleted. */
const expiredKeptMs = 7 * 86_400_000;

/** Seconds until the oldest of the counted rows leaves the hour (at least 1). */
function secondsUntilFree(oldest: Date | undefined, now: Date): number {
  if (!oldest) return 60;
  return Math.max(1, Math.ceil((oldest.getTime() + hourMs - now.getTime()) / 1000));
}

/**
 * Records a request unless a bound refuses it, in one transaction under one advisory lock (two
 * requests at once cannot both take the last place): unconfirmed requests past their token's
 * life become expired and old expired ones are deleted, the hourly bounds are counted, and when
 * the open requests are at their cap the oldest unconfirmed ones make room.
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
    const since = new Date(now.getTime() - hourMs);
    const recent = (where: ReturnType<typeof sql<boolean>> | null) => {
      let query = trx
        .selectFrom('key_requests')
        .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('oldest')])
        .where('created_at', '>', since);
      if (where) query = query.where(where);
      return query.executeTakeFirstOrThrow();
    };
    const checks = [
      ['address', sql<boolean>`client_address = ${request.clientAddress}::inet`, bounds.perAddressPerHour],
      ['email', sql<boolean>`email_canonical = canonical_email(${request.email})`, bounds.perEmailPerHour],
      ['everyone', null, bounds.perHour],
    ] as const;
    for (const [by, where, limit] of checks) {
      const { n, oldest } = await recent(where);
      if (Number(n) >= limit)
        return { admitted: false, by, retryAfterSeconds: secondsUntilFree(oldest as Date | undefined, now) };
    }
    const open = await trx
      .selectFrom('key_requests')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', 'in', ['unconfirmed', 'pending'])
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
        token_hash: request.tokenHash,
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
    | { readonly status: 'rejected'; readonly reason: string },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('key_requests')
    .set(
      outcome.status === 'approved'
        ? { status: 'approved', key_id: outcome.keyId, plan_id: outcome.planId, decided_at: now }
        : { status: 'rejected', rejection_reason: outcome.reason, decided_at: now },
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
