import { rules, taxonomy } from '@quotes/contract';
import type { Kysely } from 'kysely';
import type { Database, KeyRequestKind } from '@quotes/database';
import { findKeys } from '../data/keyOwners.js';
import { allowanceMailsOn, setAllowanceMails } from '../data/holderNotices.js';
import { holderRequestsOf, insertHolderRequest } from '../data/holderRequests.js';
import { resetSentence } from '../domain/allowanceWording.js';
import { isoSeconds } from '../domain/calendarMonth.js';
import { clientNetworkOf } from '../domain/clientNetwork.js';
import type { Clock } from '../domain/clock.js';
import { rollGraceOf } from '../domain/rollGrace.js';
import { randomBase62 } from '../keys/apiKeySecret.js';
import { createOperatorApi } from '../operator/operatorApi.js';
import { OperatorError } from '../operator/operatorError.js';
import { requireText } from '../operator/operatorInput.js';
import type { HistoryEntry, IssuedKey, KeyView, PeriodUsageView } from '../operator/operatorTypes.js';
import type { HolderSession, HolderSettings } from './holderSignIn.js';

/** Why a holder closes a key, as its revocation records it. */
export const closedByHolder = 'closed by its holder';

/** One key as its holder sees it: the key, this period's use of its allowance, and its requests. */
export interface HolderKey extends KeyView {
  /** The calls of the allowance's period (a calendar month, or a trial's 30 days). */
  readonly usage: PeriodUsageView;
  /** When the period ends: the allowance resets, or a trial's ends. */
  readonly resets: string;
  /** The plan's words for it: "Resets at 00:00 UTC on the 1st…" or "Does not reset: …". */
  readonly resetWords: string;
  /** Whether the holder is mailed at 80% and 100% of the allowance. */
  readonly allowanceMails: boolean;
}

export interface HolderRequestView {
  readonly id: string;
  readonly kind: Exclude<KeyRequestKind, 'key'>;
  readonly keyId: string;
  readonly plan: string;
  readonly status: string;
  readonly createdAt: string;
  readonly decidedAt: string | null;
  readonly rejectionReason: string | null;
}

/**
 * What a signed-in holder may see and do with their own keys: every action through the
 * operator's actions (the CLI's and the console's), audited with the holder as actor. A key id
 * that is not theirs is answered as one that does not exist.
 */
export function holderKeys(database: { db: Kysely<Database> }, settings: HolderSettings, clock: Clock) {
  const { db } = database;
  const operatorFor = (session: HolderSession, reason: string | null = null) =>
    createOperatorApi(database, { clock, onKeyChanged: settings.onKeyChanged, actor: session.actor, reason });

  async function own(session: HolderSession, id: string): Promise<void> {
    const row =
      typeof id === 'string' && /^k_[A-Za-z0-9]{1,64}$/.test(id)
        ? await db
            .selectFrom('api_keys')
            .select('id')
            .where('id', '=', id)
            .where('email_canonical', '=', session.emailCanonical)
            .executeTakeFirst()
        : undefined;
    if (!row) throw new OperatorError('no such key among yours', 'not-found');
  }

  async function view(session: HolderSession, id: string): Promise<HolderKey> {
    const [shown, mails] = await Promise.all([operatorFor(session).showKey(id), allowanceMailsOn(db, id)]);
    const plan = rules.planById.get(shown.plan);
    if (!plan) throw new OperatorError(`key ${id} is on an unknown plan`, 'failed');
    return {
      ...shown,
      resets: shown.usage.periodEnd,
      resetWords: resetSentence(plan),
      allowanceMails: mails !== false,
    };
  }

  return {
    /** The holder's keys, newest first, each with its use of this period's allowance. */
    async keys(session: HolderSession): Promise<HolderKey[]> {
      const records = await findKeys(db, { email: session.emailCanonical }, clock());
      const views: HolderKey[] = [];
      for (const record of records.reverse()) views.push(await view(session, record.id));
      return views;
    },

    async key(session: HolderSession, id: string): Promise<HolderKey> {
      await own(session, id);
      return view(session, id);
    },

    /** Calls per UTC day and outcome over the last `days` days (today included). */
    async history(session: HolderSession, id: string, range: { from: Date; to: Date }): Promise<HistoryEntry[]> {
      await own(session, id);
      return operatorFor(session).usageHistory(id, { ...range, by: 'day' });
    },

    /** A new secret, shown once; the old one works for the grace chosen (`at-once`, `1-hour`, `24-hours`). */
    async roll(
      session: HolderSession,
      id: string,
      graceId: unknown,
    ): Promise<IssuedKey & { previousUntil: string | null }> {
      const grace = rollGraceOf(graceId);
      if (!grace)
        throw new OperatorError('choose when the old key stops working: at once, after 1 hour or after 24 hours');
      await own(session, id);
      const issued = await operatorFor(session).rollKey(id, { graceMs: grace.ms });
      return { ...issued, previousUntil: grace.ms === 0 ? null : isoSeconds(new Date(clock().getTime() + grace.ms)) };
    },

    /** Replaces the browser origins, one per line or separated by spaces or commas, by the operator's rule. */
    async setOrigins(session: HolderSession, id: string, text: unknown): Promise<KeyView> {
      if (typeof text !== 'string' || text.length > 20_000)
        throw new OperatorError('origins must be text of at most 20,000 characters');
      await own(session, id);
      const origins = text.split(/[\s,]+/).filter((origin) => origin !== '');
      return operatorFor(session).setAllowedOrigins(id, origins);
    },

    /** Turns the mails at 80% and 100% of the allowance on (`on`) or off (`off`), audited. */
    async allowanceMails(session: HolderSession, id: string, choice: unknown): Promise<boolean> {
      if (choice !== 'on' && choice !== 'off')
        throw new OperatorError('choose whether the allowance mails are on or off');
      await own(session, id);
      const on = choice === 'on';
      await operatorFor(session).atomically(async (operator, trx) => {
        const before = await allowanceMailsOn(trx, id);
        await setAllowanceMails(trx, id, on);
        await operator.recordAction({
          action: 'keys allowance-mails',
          target: id,
          keyId: id,
          before: { allowanceMails: before !== false },
          after: { allowanceMails: on },
          reason: null,
        });
      });
      return on;
    },

    /** Revokes the key for good, with the reason `closed by its holder`. */
    async close(session: HolderSession, id: string): Promise<KeyView> {
      await own(session, id);
      return operatorFor(session).revokeKey(id, closedByHolder);
    },

    /** Puts a plan change or a renewal in the operator's queue, with the holder's reason. */
    async ask(
      session: HolderSession,
      id: string,
      asked: { kind: unknown; plan?: unknown; reason: unknown },
      clientAddress: string,
    ): Promise<HolderRequestView> {
      if (asked.kind !== 'plan-change' && asked.kind !== 'renewal')
        throw new OperatorError('kind must be plan-change or renewal');
      const reason = requireText(typeof asked.reason === 'string' ? asked.reason : '', 'reason', 1000);
      await own(session, id);
      const key = await operatorFor(session).showKey(id);
      if (key.state === 'revoked')
        throw new OperatorError(`the key ${key.prefix}… is closed; ask for a new key instead`, 'conflict');
      let plan = key.plan;
      if (asked.kind === 'plan-change') {
        if (typeof asked.plan !== 'string' || !taxonomy.plans.includes(asked.plan))
          throw new OperatorError(`plan must be one of ${taxonomy.plans.join(', ')}`);
        if (asked.plan === key.plan) throw new OperatorError(`the key is already on the ${key.plan} plan`, 'conflict');
        plan = asked.plan;
      } else if (key.expiresAt === null) {
        throw new OperatorError('the key does not expire: there is nothing to renew', 'conflict');
      }
      const network = clientNetworkOf(clientAddress);
      const requestId = `r_${randomBase62(12)}`;
      const now = clock();
      const inserted = await operatorFor(session).atomically(async (operator, trx) => {
        const done = await insertHolderRequest(
          trx,
          {
            id: requestId,
            kind: asked.kind as Exclude<KeyRequestKind, 'key'>,
            forKeyId: id,
            email: key.email ?? session.emailCanonical,
            client: key.client,
            planId: plan,
            reason,
            clientAddress: network.address,
            clientNetwork: network.network,
          },
          now,
        );
        if (done)
          await operator.recordAction({
            action: `requests ${asked.kind}`,
            target: requestId,
            keyId: id,
            before: null,
            after: { kind: asked.kind, plan, status: 'pending' },
            reason,
          });
        return done;
      });
      if (!inserted) throw new OperatorError('a request for this key is already waiting for the operator', 'conflict');
      settings.onRequestWaiting?.();
      return {
        id: requestId,
        kind: asked.kind,
        keyId: id,
        plan,
        status: 'pending',
        createdAt: isoSeconds(now),
        decidedAt: null,
        rejectionReason: null,
      };
    },

    /** The holder's requests about their keys, newest first (at most 50). */
    async requests(session: HolderSession): Promise<HolderRequestView[]> {
      const records = await findKeys(db, { email: session.emailCanonical }, clock());
      const rows = await holderRequestsOf(
        db,
        records.map((record) => record.id),
      );
      return rows.map((row) => ({
        id: row.id,
        kind: row.kind as Exclude<KeyRequestKind, 'key'>,
        keyId: row.for_key_id ?? '',
        plan: row.plan_id,
        status: row.status,
        createdAt: isoSeconds(row.created_at),
        decidedAt: row.decided_at && isoSeconds(row.decided_at),
        rejectionReason: row.rejection_reason,
      }));
    },
  };
}

export type HolderKeys = ReturnType<typeof holderKeys>;
