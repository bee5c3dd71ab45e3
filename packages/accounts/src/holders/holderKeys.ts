import { rules, taxonomy } from '@quotes/contract';
import type { Kysely } from 'kysely';
import type { Database, KeyRequestKind } from '@quotes/database';
import { findKeys } from '../data/keyOwners.js';
import { allowanceMailsOn, setAllowanceMails } from '../data/holderNotices.js';
import { holderRequestsOf, insertHolderRequest } from '../data/holderRequests.js';
import { giveBackActionPlaces, takeActionPlaces } from '../data/holderActionWindows.js';
import { actionWindows, boundReachedWords, type HolderAction, secondsLeftIn } from '../domain/holderActionBounds.js';
import { resetSentence } from '../domain/allowanceWording.js';
import { decisionCategoryWords } from '../domain/decisionCategories.js';
import { isoSeconds } from '../domain/calendarMonth.js';
import { clientNetworkOf } from '../domain/clientNetwork.js';
import type { Clock } from '../domain/clock.js';
import { rollGraceOf } from '../domain/rollGrace.js';
import { randomBase62 } from '../keys/apiKeySecret.js';
import { createOperatorApi } from '../operator/operatorApi.js';
import { OperatorError } from '../operator/operatorError.js';
import { requireText } from '../operator/operatorInput.js';
import type { HistoryEntry, KeyView, OperatorApi, PeriodUsageView, RolledKey } from '../operator/operatorTypes.js';
import { rollNoticeMessage } from '../mail/holderMessages.js';
import type { HolderSession, HolderSettings } from './holderSignIn.js';
import { TooManyActions } from './tooManyActions.js';

/** Why a holder closes a key, as its revocation records it. */
export const closedByHolder = 'closed by its holder';

/**
 * One key as its holder sees it: the key, this period's use of its allowance, and its requests.
 * Of a revocation, the category's words only: the operator's own words are not part of it.
 */
export interface HolderKey extends Omit<KeyView, 'revokedReason' | 'revokedCategory'> {
  /** Why it was revoked, in the category's words (domain/decisionCategories.ts); null while not revoked. */
  readonly revokedBecause: string | null;
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
  /** Why it was not granted, in the category's words; null unless rejected. */
  readonly rejectedBecause: string | null;
}

/** The refusal of every change to a closed key: it is there to be viewed, nothing more. */
export const closedKeyWords = (prefix: string) =>
  `The key ${prefix}… is closed: it can still be viewed, but not rolled, changed or asked about. Ask for a new key instead.`;

const notYours = () => new OperatorError('no such key among yours', 'not-found');
const keyIdPattern = /^k_[A-Za-z0-9]{1,64}$/;

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
      typeof id === 'string' && keyIdPattern.test(id)
        ? await db
            .selectFrom('api_keys')
            .select('id')
            .where('id', '=', id)
            .where('email_canonical', '=', session.emailCanonical)
            .executeTakeFirst()
        : undefined;
    if (!row) throw notYours();
  }

  /** The key as the holder may change it: theirs (else it does not exist), and not closed. */
  async function changeable(from: Kysely<Database>, session: HolderSession, id: string, lock: boolean) {
    let query = from
      .selectFrom('api_keys')
      .select(['status', 'key_prefix'])
      .where('id', '=', id)
      .where('email_canonical', '=', session.emailCanonical);
    if (lock) query = query.forUpdate();
    const key = await query.executeTakeFirst();
    if (!key) throw notYours();
    if (key.status === 'revoked') throw new OperatorError(closedKeyWords(key.key_prefix), 'conflict');
  }

  /**
   * Every change a holder makes passes here. The key must be theirs and not closed (a closed key
   * is only viewed); the action then takes a place in each of its bounds (decision 0045), and is
   * done in one transaction with its audit entry, the key's row held from a second look at its
   * state (a close meanwhile is seen). An action that is not done gives its places back, so the
   * places count the changes made.
   */
  async function act<T>(
    session: HolderSession,
    id: string,
    action: HolderAction | 'close',
    work: (operator: OperatorApi, trx: Kysely<Database>) => Promise<T>,
  ): Promise<T> {
    if (typeof id !== 'string' || !keyIdPattern.test(id)) throw notYours();
    await changeable(db, session, id, false);
    const done = () =>
      operatorFor(session).atomically(async (operator, trx) => {
        await changeable(trx, session, id, true);
        return work(operator, trx);
      });
    if (action === 'close') return done();
    const now = clock();
    const taker = { action, keyId: id, holder: session.actor };
    const windows = actionWindows(action, now);
    const full = await takeActionPlaces(db, taker, windows, now);
    if (full) throw new TooManyActions(boundReachedWords(action, full, now), secondsLeftIn(full, now));
    try {
      return await done();
    } catch (error) {
      // Should the give-back fail too, the places stay taken until their windows end: a bound
      // met a little early, never passed.
      await giveBackActionPlaces(db, taker, windows).catch(() => undefined);
      throw error;
    }
  }

  async function view(session: HolderSession, id: string): Promise<HolderKey> {
    const [shown, mails] = await Promise.all([operatorFor(session).showKey(id), allowanceMailsOn(db, id)]);
    const plan = rules.planById.get(shown.plan);
    if (!plan) throw new OperatorError(`key ${id} is on an unknown plan`, 'failed');
    const { revokedReason: _operatorsWords, revokedCategory, ...held } = shown;
    return {
      ...held,
      revokedBecause: shown.state === 'revoked' || shown.revokedAt ? decisionCategoryWords(revokedCategory) : null,
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

    /**
     * A new secret, shown once; the old one works for the grace chosen (`at-once`, `1-hour`,
     * `24-hours`), a running grace is never cut (decision 0049), and the holder is mailed what
     * was done.
     */
    async roll(session: HolderSession, id: string, graceId: unknown): Promise<RolledKey> {
      const rolled = await act(session, id, 'roll', async (operator) => {
        const grace = rollGraceOf(graceId);
        if (!grace)
          throw new OperatorError('choose when the old secret stops working: at once, after 1 hour or after 24 hours');
        return operator.rollKey(id, { graceMs: grace.ms });
      });
      const key = await operatorFor(session).showKey(id);
      if (key.email)
        // The new secret is on the page already: a mail server that fails must not lose it.
        await settings.mailer
          .send(
            rollNoticeMessage(
              {
                key: { id, prefix: rolled.prefix, client: key.client, plan: key.plan, email: key.email },
                rolledAt: isoSeconds(clock()),
                newPrefix: rolled.prefix,
                previousSecretUntil: rolled.previousSecretUntil,
                previousSecretIs: rolled.previousSecretIs,
              },
              settings.publicBaseUrl.replace(/\/+$/, ''),
            ),
          )
          .catch(() => undefined);
      return rolled;
    },

    /** Replaces the browser origins, one per line or separated by spaces or commas, by the operator's rule. */
    async setOrigins(session: HolderSession, id: string, text: unknown): Promise<KeyView> {
      return act(session, id, 'origins', (operator) => {
        if (typeof text !== 'string' || text.length > 20_000)
          throw new OperatorError('origins must be text of at most 20,000 characters');
        const origins = text.split(/[\s,]+/).filter((origin) => origin !== '');
        return operator.setAllowedOrigins(id, origins);
      });
    },

    /** Turns the mails at 80% and 100% of the allowance on (`on`) or off (`off`), audited. */
    async allowanceMails(session: HolderSession, id: string, choice: unknown): Promise<boolean> {
      const on = choice === 'on';
      await act(session, id, 'allowance-mails', async (operator, trx) => {
        if (choice !== 'on' && choice !== 'off')
          throw new OperatorError('choose whether the allowance mails are on or off');
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

    /** Revokes the key for good, with the reason `closed by its holder` (category `requested-by-holder`). */
    async close(session: HolderSession, id: string): Promise<KeyView> {
      return act(session, id, 'close', (operator) => operator.revokeKey(id, closedByHolder));
    },

    /** Puts a plan change or a renewal in the operator's queue, with the holder's reason. */
    async ask(
      session: HolderSession,
      id: string,
      asked: { kind: unknown; plan?: unknown; reason: unknown },
      clientAddress: string,
    ): Promise<HolderRequestView> {
      const requestId = `r_${randomBase62(12)}`;
      const now = clock();
      const { kind, plan } = await act<{ kind: Exclude<KeyRequestKind, 'key'>; plan: string }>(
        session,
        id,
        'request',
        async (operator, trx) => {
          const kind = asked.kind;
          if (kind !== 'plan-change' && kind !== 'renewal')
            throw new OperatorError('kind must be plan-change or renewal');
          const reason = requireText(typeof asked.reason === 'string' ? asked.reason : '', 'reason', 1000);
          const key = await operator.showKey(id);
          let plan = key.plan;
          if (kind === 'plan-change') {
            if (typeof asked.plan !== 'string' || !taxonomy.plans.includes(asked.plan))
              throw new OperatorError(`plan must be one of ${taxonomy.plans.join(', ')}`);
            if (asked.plan === key.plan)
              throw new OperatorError(`the key is already on the ${key.plan} plan`, 'conflict');
            plan = asked.plan;
          } else if (key.expiresAt === null) {
            throw new OperatorError('the key does not expire: there is nothing to renew', 'conflict');
          }
          const network = clientNetworkOf(clientAddress);
          const inserted = await insertHolderRequest(
            trx,
            {
              id: requestId,
              kind,
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
          if (!inserted)
            throw new OperatorError('a request for this key is already waiting for the operator', 'conflict');
          await operator.recordAction({
            action: `requests ${kind}`,
            target: requestId,
            keyId: id,
            before: null,
            after: { kind, plan, status: 'pending' },
            reason,
          });
          return { kind, plan };
        },
      );
      settings.onRequestWaiting?.();
      return {
        id: requestId,
        kind,
        keyId: id,
        plan,
        status: 'pending',
        createdAt: isoSeconds(now),
        decidedAt: null,
        rejectedBecause: null,
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
        rejectedBecause: row.status === 'rejected' ? decisionCategoryWords(row.rejection_category) : null,
      }));
    },
  };
}

export type HolderKeys = ReturnType<typeof holderKeys>;
