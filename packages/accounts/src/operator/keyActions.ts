import { rules } from '@quotes/contract';
import { renewKey, revokeKey, rollSecret, updateActiveKey } from '../data/apiKeys.js';
import { graceAfterRoll, maxRollGraceMs } from '../domain/rollGrace.js';
import { activeKeyOwners, findKeys, insertKeyUnlessTrialTaken, revokeKeysOf } from '../data/keyOwners.js';
import { settleRequestsOfClosedKeys } from '../data/holderRequests.js';
import { callsInPeriod, usageInMonth } from '../data/monthlyUsage.js';
import { allowancePeriod } from '../domain/allowancePeriod.js';
import { calendarMonthOf, isoSeconds } from '../domain/calendarMonth.js';
import { type DecisionCategory, holderActorPrefix } from '../domain/decisionCategories.js';
import { plansWhere } from '../domain/plans.js';
import { recordRevocationNotices } from '../notices/revocationNotices.js';
import { displayPrefix, generateApiKey, generateKeyId, hashApiKey } from '../keys/apiKeySecret.js';
import { inTransaction } from '../data/transaction.js';
import { OperatorError } from './operatorError.js';
import {
  allowanceOf,
  optionalText,
  requireAllowanceChoice,
  requireDecisionCategory,
  requireClientName,
  requireEmail,
  requireOrigins,
} from './operatorInput.js';

import type { KeyView, OperatorApi, RolledKey } from './operatorTypes.js';
import {
  type OperatorContext,
  dayMs,
  requireDate,
  requireWholeNumber,
  trialTaken,
  usageOf,
  viewOf,
} from './operatorContext.js';
import { trialLookbackDays } from './operatorTypes.js';

/** The operator's actions on keys: issue, list, change, roll, revoke, renew. */
export function keyActions(
  context: OperatorContext,
): Pick<
  OperatorApi,
  | 'createKey'
  | 'listKeys'
  | 'revokeKeysOf'
  | 'changePlan'
  | 'setAllowedOrigins'
  | 'rollKey'
  | 'activeOwners'
  | 'showKey'
  | 'revokeKey'
  | 'renewKey'
> {
  const { db, clock, changed, actor, audit, changeKey, existing, planNamed } = context;
  /** The category the holder reads: theirs when they close the key themselves, else the operator's choice. */
  const categoryOf = (category: string | undefined): DecisionCategory =>
    actor.startsWith(holderActorPrefix)
      ? 'requested-by-holder'
      : category === undefined
        ? 'other'
        : requireDecisionCategory(category);
  return {
    async createKey(input) {
      const client = requireClientName(input.client);
      const allowedOrigins = requireOrigins(input.allowedOrigins ?? []);
      const email = input.email == null || input.email.trim() === '' ? null : requireEmail(input.email);
      const plan = await planNamed(input.plan);
      const hasOverrides = allowanceOf(input).monthlyCalls !== null || (input.maxLimit ?? null) !== null;
      if (hasOverrides && !plan.perKeyLimits)
        throw new OperatorError(
          `monthly calls and max limit can only be set per key on ${plansWhere((rule) => rule.perKeyLimits)}, not on ${plan.id}`,
        );
      // The plan's rules are the action's: a key request's approval, the console and the CLI meet the same refusal.
      const monthlyCalls = requireAllowanceChoice(plan.id, input);
      const maxLimit =
        input.maxLimit == null ? null : requireWholeNumber(input.maxLimit, 'max limit', 1, rules.pageCeiling);

      const now = clock();
      let expiresAt = input.expiresAt ? requireDate(input.expiresAt, 'expiry') : null;
      if (expiresAt !== null && expiresAt.getTime() <= now.getTime() && !input.allowPastExpiry)
        throw new OperatorError(`expiry must be in the future, got ${isoSeconds(expiresAt)}`);
      const days = plan.validityDays;
      if (days !== null) {
        const latest = new Date(now.getTime() + days * dayMs);
        if (expiresAt === null) expiresAt = latest;
        else if (expiresAt.getTime() > latest.getTime())
          throw new OperatorError(
            `${plan.id} keys are valid for at most ${days} days from issue (until ${isoSeconds(latest)})`,
          );
      }

      const key = generateApiKey();
      const id = generateKeyId();
      const earlier = await inTransaction(db, async (trx) => {
        const refusedBy = await insertKeyUnlessTrialTaken(
          trx,
          {
            id,
            key_hash: hashApiKey(key),
            key_prefix: displayPrefix(key),
            client,
            email,
            plan_id: plan.id,
            monthly_calls: monthlyCalls,
            max_limit: maxLimit,
            status: 'active',
            revoked_at: null,
            revoked_reason: null,
            expires_at: expiresAt,
            created_at: now,
            allowed_origins: allowedOrigins,
          },
          days === null
            ? null
            : {
                since: new Date(now.getTime() - trialLookbackDays * dayMs),
                allowAnother: input.allowAnotherTrial === true,
              },
        );
        if (refusedBy) return refusedBy;
        const after = viewOf(await existing(id, trx), clock());
        await audit(trx, [{ action: 'keys create', target: id, keyId: id, before: null, after }]);
        return undefined;
      });
      if (earlier) throw trialTaken(earlier, plan.id);
      return {
        id,
        key,
        client,
        plan: plan.id,
        expires_at: expiresAt && isoSeconds(expiresAt),
        prefix: displayPrefix(key),
      };
    },

    async listKeys(filter = {}) {
      const now = clock();
      const month = calendarMonthOf(now);
      const [records, calls] = await Promise.all([
        findKeys(
          db,
          {
            email: filter.email === undefined ? undefined : requireEmail(filter.email),
            client: filter.client === undefined ? undefined : requireClientName(filter.client),
            plan: filter.plan === undefined ? undefined : (await planNamed(filter.plan)).id,
            state: filter.state,
          },
          now,
        ),
        usageInMonth(db, month.key),
      ]);
      return records.map((record) => ({ ...viewOf(record, now), callsThisMonth: calls.get(record.id) ?? 0 }));
    },

    async revokeKeysOf(owner, reason, category) {
      if (owner.email === undefined && owner.client === undefined)
        throw new OperatorError('name the keys to revoke: a key id, --email or --client');
      const email = owner.email === undefined ? undefined : requireEmail(owner.email);
      const client = owner.client === undefined ? undefined : requireClientName(owner.client);
      const text = optionalText(reason, 'reason', 500);
      const decided = categoryOf(category);
      const views = await inTransaction(db, async (trx) => {
        const at = clock();
        const ids = await revokeKeysOf(trx, { email, client }, { category: decided, reason: text }, at);
        const now = clock();
        const revoked: KeyView[] = [];
        for (const id of ids) revoked.push(viewOf(await existing(id, trx), now));
        await recordRevocationNotices(trx, revoked, at, decided);
        await settleRequestsOfClosedKeys(trx, ids, at);
        await audit(
          trx,
          revoked.map((view) => ({
            action: 'keys revoke',
            target: view.id,
            keyId: view.id,
            before: { state: 'active', by: email === undefined ? { client } : { email, client } },
            after: view,
            reason: text,
          })),
        );
        return revoked;
      });
      for (const view of views) changed(view.id);
      return views;
    },

    async changePlan(id, change) {
      const now = clock();
      // The plan's rules first: what is asked is refused in the same words whatever key it names.
      const plan = await planNamed(change.plan);
      const hasOverrides = allowanceOf(change).monthlyCalls !== null || (change.maxLimit ?? null) !== null;
      if (hasOverrides && !plan.perKeyLimits)
        throw new OperatorError(
          `monthly calls and max limit can only be set per key on ${plansWhere((rule) => rule.perKeyLimits)}, not on ${plan.id}`,
        );
      const monthlyCalls = requireAllowanceChoice(plan.id, change);
      const maxLimit =
        change.maxLimit == null ? null : requireWholeNumber(change.maxLimit, 'max limit', 1, rules.pageCeiling);
      const record = await existing(id);
      if (record.status === 'revoked')
        throw new OperatorError(`key ${id} is revoked; its plan cannot change`, 'conflict');
      if (plan.id === record.plan.id && !hasOverrides)
        throw new OperatorError(`key ${id} is already on ${plan.id}`, 'conflict');
      // A plan with a validity (trial) bounds the expiry from now; leaving one drops the expiry it imposed.
      let expiresAt = record.expiresAt;
      if (plan.validityDays !== null) {
        const latest = new Date(now.getTime() + plan.validityDays * dayMs);
        if (expiresAt === null || expiresAt.getTime() > latest.getTime()) expiresAt = latest;
        if (plan.id !== record.plan.id && !change.allowAnotherTrial) {
          const since = new Date(now.getTime() - trialLookbackDays * dayMs);
          const others = [
            ...(record.email ? await findKeys(db, { email: record.email, plan: plan.id }, now) : []),
            ...(await findKeys(db, { client: record.client, plan: plan.id }, now)),
          ].filter((other) => other.id !== id && other.createdAt.getTime() > since.getTime());
          if (others[0]) throw trialTaken(others[0], plan.id);
        }
      } else if (record.plan.validityDays !== null) {
        expiresAt = null;
      }
      return changeKey(
        id,
        (trx) =>
          updateActiveKey(trx, id, {
            plan_id: plan.id,
            monthly_calls: monthlyCalls,
            max_limit: maxLimit,
            expires_at: expiresAt,
          }),
        `key ${id} could not be changed (revoked meanwhile?)`,
        { action: 'keys change-plan', before: record, now },
      );
    },

    async setAllowedOrigins(id, origins) {
      const allowedOrigins = requireOrigins(origins);
      const record = await existing(id);
      if (record.status === 'revoked')
        throw new OperatorError(`key ${id} is revoked; its origins cannot change`, 'conflict');
      return changeKey(
        id,
        (trx) => updateActiveKey(trx, id, { allowed_origins: allowedOrigins }),
        `key ${id} could not be changed (revoked meanwhile?)`,
        { action: 'keys set-origins', before: record, now: clock() },
      );
    },

    async rollKey(id, options = {}) {
      const graceMs = requireWholeNumber(options.graceMs ?? 0, 'grace (ms)', 0, maxRollGraceMs);
      const record = await existing(id);
      if (record.status === 'revoked')
        throw new OperatorError(`key ${id} is revoked; a revoked key cannot be rolled`, 'conflict');
      const now = clock();
      const grace = graceAfterRoll(record.previousValidUntil, now, graceMs);
      if ('refused' in grace) throw new OperatorError(`key ${id} was not rolled: ${grace.refused}`, 'conflict');
      const key = generateApiKey();
      const previousValidUntil = grace.keep === 'none' ? null : grace.until;
      await changeKey(
        id,
        (trx) => rollSecret(trx, id, { hash: hashApiKey(key), prefix: displayPrefix(key) }, now, record, grace),
        `key ${id} could not be rolled (revoked or rolled meanwhile?)`,
        {
          action: 'keys roll',
          before: record,
          now,
          // The grace is part of what was done: the audit says until when the old secret worked.
          reason:
            previousValidUntil &&
            [
              context.givenReason,
              grace.keep === 'current'
                ? `previous secret valid until ${isoSeconds(previousValidUntil)}`
                : `current secret refused at once; the one before it still valid until ${isoSeconds(previousValidUntil)}`,
            ]
              .filter(Boolean)
              .join('; '),
        },
      );
      return {
        id,
        key,
        client: record.client,
        plan: record.plan.id,
        expires_at: record.expiresAt && isoSeconds(record.expiresAt),
        prefix: displayPrefix(key),
        previousSecretUntil: previousValidUntil && isoSeconds(previousValidUntil),
        previousSecretIs: grace.keep === 'previous' ? 'earlier' : grace.keep === 'current' ? 'replaced' : null,
      } satisfies RolledKey;
    },

    activeOwners() {
      return activeKeyOwners(db, clock());
    },

    async showKey(id) {
      const now = clock();
      const record = await existing(id);
      const period = allowancePeriod(record.plan, record, now);
      const usage = usageOf(record, calendarMonthOf(now), await callsInPeriod(db, id, period, now), now);
      return {
        ...viewOf(record, now),
        usage: { ...usage, periodStart: isoSeconds(period.start), periodEnd: isoSeconds(period.end) },
      };
    },

    async revokeKey(id, reason, category) {
      const text = optionalText(reason, 'reason', 500);
      const decided = categoryOf(category);
      const record = await existing(id);
      if (record.status === 'revoked')
        throw new OperatorError(
          `key ${id} was already revoked on ${isoSeconds(record.revokedAt ?? new Date(0))}`,
          'conflict',
        );
      const at = clock();
      return changeKey(
        id,
        async (trx) => {
          if (!(await revokeKey(trx, id, { category: decided, reason: text }, at))) return false;
          // The holder's mail is due in the revocation's own transaction: whoever revokes, it is sent.
          await recordRevocationNotices(trx, [record], at, decided);
          await settleRequestsOfClosedKeys(trx, [id], at);
          return true;
        },
        `key ${id} could not be revoked (revoked meanwhile?)`,
        { action: 'keys revoke', before: record, now: clock(), reason: text },
      );
    },

    async renewKey(id, until) {
      requireDate(until, 'until');
      const now = clock();
      const record = await existing(id);
      if (record.status === 'revoked')
        throw new OperatorError(`key ${id} is revoked; a revoked key cannot be renewed: create a new one`, 'conflict');
      if (until.getTime() <= now.getTime())
        throw new OperatorError(`until must be in the future, got ${isoSeconds(until)}`);
      const days = record.plan.validityDays;
      if (days !== null) {
        const latest = new Date(record.createdAt.getTime() + days * dayMs);
        if (until.getTime() > latest.getTime())
          throw new OperatorError(
            `${record.plan.id} keys are valid for at most ${days} days from issue: ${id} cannot run past ${isoSeconds(latest)}`,
          );
      }
      return changeKey(id, (trx) => renewKey(trx, id, until), `key ${id} could not be renewed (revoked meanwhile?)`, {
        action: 'keys renew',
        before: record,
        now,
      });
    },
  };
}
