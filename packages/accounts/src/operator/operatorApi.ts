import { rules } from '@quotes/contract';
import type { Kysely } from 'kysely';
import {
  type ApiKeyRecord,
  findKeyById,
  findPlan,
  listKeys,
  renewKey,
  revokeKey,
  updateActiveKey,
} from '../data/apiKeys.js';
import {
  activeKeyOwners,
  alertsSentInMonth,
  claimSignalAlerts,
  claimUsageAlert,
  findKeys,
  insertKeyUnlessTrialTaken,
  type KeyOwner,
  type KeyState,
  revokeKeysOf,
} from '../data/keyOwners.js';
import { callsInMonth, setCallsInMonth, usageInMonth } from '../data/monthlyUsage.js';
import { unknownKeyBucket } from '../data/usageHistoryQueries.js';
import {
  corpusSize,
  coverageInMonth,
  type HistoryRow,
  historyOf,
  sightingsBetween,
  trialKeysCreated,
  trialRequestsFrom,
} from '../data/usageHistoryQueries.js';
import {
  defaultSignalThresholds,
  coverageSignals,
  type Signal,
  type SignalThresholds,
  sharingSignals,
  sweepSignals,
  trialRotationSignals,
} from '../domain/usageSignals.js';
import type { Database } from '@quotes/database';
import { type CalendarMonth, calendarMonthOf, isoSeconds, parseMonth } from '../domain/calendarMonth.js';
import { type Clock, systemClock } from '../domain/clock.js';
import { keyStanding } from '../domain/keyStanding.js';
import { effectiveLimits, plansWhere, remainingCalls } from '../domain/plans.js';
import { displayPrefix, generateApiKey, generateKeyId, hashApiKey } from '../keys/apiKeySecret.js';
import { appendAuditEntries, type AuditEntry, listAuditEntries } from '../data/operatorAudit.js';
import { inTransaction } from '../data/transaction.js';
import { OperatorError } from './operatorError.js';
import { osActor } from './operatorActor.js';
import {
  optionalText,
  quoted,
  requireClientName,
  requireEmail,
  requireOrigins,
  requirePlanName,
} from './operatorInput.js';

export { OperatorError, type OperatorErrorCode } from './operatorError.js';
export type { KeyOwner, KeyState } from '../data/keyOwners.js';
export type { Signal } from '../domain/usageSignals.js';

/**
 * One trial per person and per client: a trial key issued to the same canonical address or
 * client within this many days refuses another (the README's "one trial per person").
 */
export const trialLookbackDays = 365;

export interface CreateKeyInput {
  client: string;
  plan: string;
  email?: string | null;
  /** Optional expiry; a plan with a validity (trial) defaults to issue + validity and cannot exceed it. */
  expiresAt?: Date | null;
  /** Enterprise only: calls per month (absent: unlimited). */
  monthlyCalls?: number | null;
  /** Plans with per-key limits only: largest page, 1 to the contract's page ceiling (absent: the plan's). */
  maxLimit?: number | null;
  /** Issue a trial even though this person or client had one recently (the operator's explicit override). */
  allowAnotherTrial?: boolean;
  /** Accept an expiry in the past: a key that is expired from the start (test fixtures only). */
  allowPastExpiry?: boolean;
  /** Browser origins the key may be used from (`scheme://host[:port]`, or `:*` for any port); none by default. */
  allowedOrigins?: readonly string[];
}

export interface KeyFilterInput {
  email?: string;
  client?: string;
  plan?: string;
  state?: KeyState;
}

export interface ChangePlanInput {
  plan: string;
  monthlyCalls?: number | null;
  maxLimit?: number | null;
  allowAnotherTrial?: boolean;
}

/** A key whose calls this month reached a threshold of its allowance. */
export interface UsageAlert extends UsageView {
  email: string | null;
  /** 80 or 100: the highest threshold reached. */
  threshold: number;
  percent: number;
  /** Whether this threshold was already mailed this month. */
  sent: boolean;
}

/** Shown once, at creation: the only time the key itself exists outside the caller's hands. */
export interface IssuedKey {
  id: string;
  key: string;
  client: string;
  plan: string;
  expires_at: string | null;
  prefix: string;
}

export interface KeyView {
  id: string;
  prefix: string;
  client: string;
  email: string | null;
  plan: string;
  /** 'expired' is derived from the clock; the stored status is active or revoked. */
  state: 'active' | 'revoked' | 'expired';
  monthlyCalls: number | null;
  maxLimit: number;
  filtersPerCall: number;
  faithFilter: boolean;
  expiresAt: string | null;
  revokedAt: string | null;
  revokedReason: string | null;
  createdAt: string;
  allowedOrigins: string[];
}

export interface UsageView {
  keyId: string;
  /** The start of the key the customer holds (`qk_` and 8 characters): how they recognise it. */
  prefix: string;
  /** The key's state now, whatever month the usage is of. */
  state: KeyView['state'];
  client: string;
  plan: string;
  /** 'YYYY-MM' */
  month: string;
  calls: number;
  limit: number | null;
  remaining: number | null;
}

export interface OperatorApi {
  createKey(input: CreateKeyInput): Promise<IssuedKey>;
  /** Keys matching every filter given, each with this month's calls. */
  listKeys(filter?: KeyFilterInput): Promise<(KeyView & { callsThisMonth: number })[]>;
  /** Revokes every active key of a person (canonical address) or client, in one transaction. */
  revokeKeysOf(owner: { email?: string; client?: string }, reason?: string | null): Promise<KeyView[]>;
  changePlan(id: string, change: ChangePlanInput): Promise<KeyView>;
  /** A new secret for the same key record and usage; the old secret is refused from the commit on. */
  rollKey(id: string): Promise<IssuedKey>;
  /** Replaces the browser origins a key may be used from (an empty list: none). */
  setAllowedOrigins(id: string, origins: readonly string[]): Promise<KeyView>;
  /** Everyone holding an active key, each address once. */
  activeOwners(): Promise<KeyOwner[]>;
  /** Keys at 80% and 100% of their allowance in a month (default: this one). */
  usageAlerts(month?: string): Promise<UsageAlert[]>;
  /**
   * Mails each alert not yet sent (once per key, month and threshold); an alert whose mail
   * fails is released so the next run tries again. Returns the alerts sent.
   */
  sendUsageAlerts(month: string | undefined, send: (alert: UsageAlert) => Promise<void>): Promise<UsageAlert[]>;
  showKey(id: string): Promise<KeyView & { usage: UsageView }>;
  revokeKey(id: string, reason?: string | null): Promise<KeyView>;
  renewKey(id: string, until: Date): Promise<KeyView>;
  usage(id: string, month?: string): Promise<UsageView>;
  usageReport(month?: string): Promise<UsageView[]>;
  /**
   * A key's calls per hour or UTC day and outcome in [from, to) (default: this month so far);
   * the id `unknown` gives the calls whose key was missing or not recognised.
   */
  usageHistory(id: string, range: { from?: Date; to?: Date; by: 'hour' | 'day' }): Promise<HistoryEntry[]>;
  /** Signs of broken terms in a month (default: this one): coverage, sweeps, sharing, trial rotation, each with its evidence. */
  usageSignals(month?: string, thresholds?: SignalThresholds): Promise<Signal[]>;
  /**
   * Hands the month's signs not mailed before (once per key, signal and month) to `send`, in one
   * transaction with their claim and audit entry: a failed mail leaves them to the next run.
   * Returns the signs sent (none when every one was mailed before).
   */
  sendUsageSignals(
    month: string | undefined,
    thresholds: SignalThresholds | undefined,
    send: (signals: Signal[]) => Promise<void>,
  ): Promise<Signal[]>;
  /** Records an action taken outside this API (corpus loads, announcements) in the audit, as this operator. */
  recordAction(
    action: Omit<AuditEntry, 'actor' | 'reason' | 'keyId'> & { keyId?: string | null; reason?: string | null },
  ): Promise<void>;
  /** The audit, oldest first: every key, corpus and mail action with its actor, target, before, after and reason. */
  auditTrail(filter?: { keyId?: string; since?: Date; limit?: number }): Promise<AuditView[]>;
  /** Sets a key's count for a month (e.g. to use an allowance up for a test of the 429). */
  setUsage(id: string, calls: number, month?: string): Promise<UsageView>;
  /**
   * Runs `work` as one transaction, given an operator API bound to it and the transaction for the
   * caller's own writes: its actions, their audit entries and those writes commit together or not
   * at all; running servers hear of the keys it changed at the commit.
   */
  atomically<T>(work: (operator: OperatorApi, db: Kysely<Database>) => Promise<T>): Promise<T>;
}

/** One entry of the audit as shown to the operator. */
export interface AuditView extends Omit<AuditEntry, 'before' | 'after'> {
  id: string;
  at: string;
  before: unknown;
  after: unknown;
}

/** One row of a key's usage history: the period's start (ISO, UTC), an outcome and its calls. */
export interface HistoryEntry {
  start: string;
  outcome: HistoryRow['outcome'];
  calls: number;
}

const dayMs = 86_400_000;
const alertThresholds = [100, 80] as const;

function requireWholeNumber(value: number, name: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new OperatorError(`${name} must be a whole number from ${min} to ${max}, got ${value}`);
  return value;
}

function requireDate(value: Date, name: string): Date {
  if (Number.isNaN(value.getTime())) throw new OperatorError(`${name} is not a valid date`);
  return value;
}

function monthOf(text: string | undefined, now: Date): CalendarMonth {
  if (text === undefined) return calendarMonthOf(now);
  const month = parseMonth(text);
  if (!month) throw new OperatorError(`month must be YYYY-MM, got "${text}"`);
  return month;
}

function viewOf(record: ApiKeyRecord, now: Date): KeyView {
  const limits = effectiveLimits(record.plan, record.overrides);
  return {
    id: record.id,
    prefix: record.keyPrefix,
    client: record.client,
    email: record.email,
    plan: record.plan.id,
    state: keyStanding(record, now),
    monthlyCalls: limits.monthlyCalls,
    maxLimit: limits.maxLimit,
    filtersPerCall: record.plan.filtersPerCall,
    faithFilter: record.plan.faithFilter,
    expiresAt: record.expiresAt && isoSeconds(record.expiresAt),
    revokedAt: record.revokedAt && isoSeconds(record.revokedAt),
    revokedReason: record.revokedReason,
    createdAt: isoSeconds(record.createdAt),
    allowedOrigins: [...record.allowedOrigins],
  };
}

function usageOf(record: ApiKeyRecord, month: CalendarMonth, calls: number, now: Date): UsageView {
  const limit = effectiveLimits(record.plan, record.overrides).monthlyCalls;
  return {
    keyId: record.id,
    prefix: record.keyPrefix,
    state: keyStanding(record, now),
    client: record.client,
    plan: record.plan.id,
    month: month.key.slice(0, 7),
    calls,
    limit,
    remaining: remainingCalls(limit, calls),
  };
}

/** A trial refused because the person or client had one: the earlier key, for whoever reports it. */
export class TrialTakenError extends OperatorError {
  constructor(
    message: string,
    readonly earlier: ApiKeyRecord,
  ) {
    super(message, 'refused');
  }
}

function trialTaken(earlier: ApiKeyRecord, plan: string): TrialTakenError {
  const who = earlier.email
    ? `${earlier.email} / client ${quoted(earlier.client)}`
    : `client ${quoted(earlier.client)}`;
  return new TrialTakenError(
    `refused: one ${plan} per person and client, and ${who} already had ${earlier.id} (issued ${isoSeconds(earlier.createdAt)}); override with --allow-another-trial`,
    earlier,
  );
}

/**
 * The operator's work on keys and usage, shared by the `quotes-admin` CLI and by anything that
 * provisions keys programmatically (the conformance hooks): one implementation of the rules.
 */
export function createOperatorApi(
  database: { db: Kysely<Database> },
  options: {
    clock?: Clock;
    /** Called after a change to a key commits: a server in this process forgets it at once rather than at the NOTIFY. */
    onKeyChanged?: (keyId: string) => void;
    /** Who acts, as the audit records it: `os:USER` by default; a console session would be `console:SESSION`. */
    actor?: string;
    /** Why, recorded with every action this API takes (an explicit revocation reason wins). */
    reason?: string | null;
  } = {},
): OperatorApi {
  const { db } = database;
  const clock = options.clock ?? systemClock;
  const changed = options.onKeyChanged ?? (() => undefined);
  const actor = options.actor ?? osActor();
  const givenReason = optionalText(options.reason, 'reason', 2000);

  /**
   * Every change writes its audit entries here, in the change's own transaction: an entry that
   * cannot be written undoes the change, so nothing is done without being recorded.
   */
  async function audit(
    trx: Kysely<Database>,
    entries: readonly (Omit<AuditEntry, 'actor' | 'reason'> & { reason?: string | null })[],
  ): Promise<void> {
    try {
      await appendAuditEntries(
        trx,
        entries.map((entry) => ({ ...entry, actor, reason: entry.reason ?? givenReason })),
      );
    } catch (error) {
      const first = entries[0]!;
      throw new OperatorError(
        `${first.action} ${first.target} was not done: its audit entry could not be written: ${error instanceof Error ? error.message : String(error)}`,
        'failed',
      );
    }
  }

  /** A change to one key, in its transaction: recorded with the key as it was and as it is now; returns the latter. */
  async function auditedChange(
    trx: Kysely<Database>,
    action: string,
    before: ApiKeyRecord,
    now: Date,
    reason?: string | null,
  ) {
    const after = viewOf(await existing(before.id, trx), clock());
    await audit(trx, [{ action, target: before.id, keyId: before.id, before: viewOf(before, now), after, reason }]);
    return after;
  }

  /** One change to one key and its audit entry, committed together; servers forget the key after the commit. */
  async function changeKey(
    id: string,
    write: (trx: Kysely<Database>) => Promise<boolean>,
    refused: string,
    recorded: { action: string; before: ApiKeyRecord; now: Date; reason?: string | null },
  ): Promise<KeyView> {
    const after = await inTransaction(db, async (trx) => {
      if (!(await write(trx))) throw new OperatorError(refused, 'conflict');
      return auditedChange(trx, recorded.action, recorded.before, recorded.now, recorded.reason);
    });
    changed(id);
    return after;
  }

  async function existing(id: string, from: Kysely<Database> = db): Promise<ApiKeyRecord> {
    const record = await findKeyById(from, id);
    if (!record) throw new OperatorError(`no key with id ${quoted(id)} (see: keys list)`, 'not-found');
    return record;
  }

  async function planNamed(name: string) {
    const plan = await findPlan(db, requirePlanName(name));
    if (!plan) throw new OperatorError(`plan "${name}" is not in the plans table (are migrations applied?)`, 'failed');
    return plan;
  }

  async function alertsIn(month: CalendarMonth): Promise<UsageAlert[]> {
    const now = clock();
    const [records, calls, sent] = await Promise.all([
      findKeys(db, { state: 'active' }, now),
      usageInMonth(db, month.key),
      alertsSentInMonth(db, month.key),
    ]);
    const alerts: UsageAlert[] = [];
    for (const record of records) {
      const usage = usageOf(record, month, calls.get(record.id) ?? 0, now);
      if (usage.limit === null) continue;
      const percent = usage.limit === 0 ? 100 : Math.floor((usage.calls * 100) / usage.limit);
      const threshold = alertThresholds.find((value) => percent >= value);
      if (threshold === undefined) continue;
      alerts.push({
        ...usage,
        email: record.email,
        threshold,
        percent,
        sent: (sent.get(record.id) ?? []).includes(threshold),
      });
    }
    return alerts;
  }

  async function signalsIn(month: string | undefined, thresholds: SignalThresholds): Promise<Signal[]> {
    const calendarMonth = monthOf(month, clock());
    const trialWindow = {
      from: new Date(calendarMonth.start.getTime() - thresholds.trialWindowDays * dayMs),
      to: calendarMonth.next,
    };
    const [used, created, requested, coverage, size, calls] = await Promise.all([
      sightingsBetween(db, { from: calendarMonth.key, to: calendarMonth.next.toISOString().slice(0, 10) }),
      trialKeysCreated(db, trialWindow),
      trialRequestsFrom(db, trialWindow),
      coverageInMonth(db, calendarMonth.key),
      corpusSize(db),
      usageInMonth(db, calendarMonth.key),
    ]);
    // A trial asked for from a network counts as seen there, as one used from it does.
    const sightings = [
      ...used,
      ...requested.map((request) => ({
        keyId: request.id,
        day: isoSeconds(request.createdAt).slice(0, 10),
        kind: 'network' as const,
        value: request.network,
      })),
    ];
    const trials = [...created, ...requested.filter((request) => !created.some((key) => key.id === request.id))];
    const order: Signal['signal'][] = ['coverage', 'sweep', 'sharing', 'trial-rotation'];
    return [
      ...coverageSignals(coverage, size, calls, thresholds),
      ...sweepSignals(sightings, thresholds),
      ...sharingSignals(sightings, thresholds),
      ...trialRotationSignals(sightings, trials, thresholds),
    ].sort((a, b) => a.keyId.localeCompare(b.keyId) || order.indexOf(a.signal) - order.indexOf(b.signal));
  }

  return {
    async createKey(input) {
      const client = requireClientName(input.client);
      const allowedOrigins = requireOrigins(input.allowedOrigins ?? []);
      const email = input.email == null || input.email.trim() === '' ? null : requireEmail(input.email);
      const plan = await planNamed(input.plan);
      const hasOverrides = (input.monthlyCalls ?? null) !== null || (input.maxLimit ?? null) !== null;
      if (hasOverrides && !plan.perKeyLimits)
        throw new OperatorError(
          `monthly calls and max limit can only be set per key on ${plansWhere((rule) => rule.perKeyLimits)}, not on ${plan.id}`,
        );
      const monthlyCalls =
        input.monthlyCalls == null ? null : requireWholeNumber(input.monthlyCalls, 'monthly calls', 0, 2_147_483_647);
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

    async revokeKeysOf(owner, reason) {
      if (owner.email === undefined && owner.client === undefined)
        throw new OperatorError('name the keys to revoke: a key id, --email or --client');
      const email = owner.email === undefined ? undefined : requireEmail(owner.email);
      const client = owner.client === undefined ? undefined : requireClientName(owner.client);
      const text = optionalText(reason, 'reason', 500);
      const views = await inTransaction(db, async (trx) => {
        const ids = await revokeKeysOf(trx, { email, client }, text, clock());
        const now = clock();
        const revoked: KeyView[] = [];
        for (const id of ids) revoked.push(viewOf(await existing(id, trx), now));
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
      const record = await existing(id);
      if (record.status === 'revoked')
        throw new OperatorError(`key ${id} is revoked; its plan cannot change`, 'conflict');
      const plan = await planNamed(change.plan);
      const hasOverrides = (change.monthlyCalls ?? null) !== null || (change.maxLimit ?? null) !== null;
      if (hasOverrides && !plan.perKeyLimits)
        throw new OperatorError(
          `monthly calls and max limit can only be set per key on the enterprise plan, not on ${plan.id}`,
        );
      if (plan.id === record.plan.id && !hasOverrides)
        throw new OperatorError(`key ${id} is already on ${plan.id}`, 'conflict');
      const monthlyCalls =
        change.monthlyCalls == null ? null : requireWholeNumber(change.monthlyCalls, 'monthly calls', 0, 2_147_483_647);
      const maxLimit =
        change.maxLimit == null ? null : requireWholeNumber(change.maxLimit, 'max limit', 1, rules.pageCeiling);
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

    async rollKey(id) {
      const record = await existing(id);
      if (record.status === 'revoked')
        throw new OperatorError(`key ${id} is revoked; a revoked key cannot be rolled`, 'conflict');
      const key = generateApiKey();
      await changeKey(
        id,
        (trx) =>
          updateActiveKey(trx, id, {
            key_hash: hashApiKey(key),
            key_prefix: displayPrefix(key),
            secret_rolled_at: clock(),
          }),
        `key ${id} could not be rolled (revoked meanwhile?)`,
        { action: 'keys roll', before: record, now: clock() },
      );
      return {
        id,
        key,
        client: record.client,
        plan: record.plan.id,
        expires_at: record.expiresAt && isoSeconds(record.expiresAt),
        prefix: displayPrefix(key),
      };
    },

    activeOwners() {
      return activeKeyOwners(db, clock());
    },

    async usageAlerts(month) {
      const calendarMonth = monthOf(month, clock());
      return alertsIn(calendarMonth);
    },

    async sendUsageAlerts(month, send) {
      const calendarMonth = monthOf(month, clock());
      const sent: UsageAlert[] = [];
      for (const alert of await alertsIn(calendarMonth)) {
        if (alert.sent || alert.email === null) continue;
        // The claim, its audit entry and the mail are one transaction: a mail that fails undoes the
        // claim, so the next run tries again; a run at the same time waits on the claim and skips it.
        const mailed = await inTransaction(db, async (trx) => {
          if (!(await claimUsageAlert(trx, alert.keyId, calendarMonth.key, alert.threshold, clock()))) return false;
          // Reaching 100% first also settles the 80% alert: one mail per threshold crossed, never a late 80%.
          for (const lower of alertThresholds)
            if (lower < alert.threshold) await claimUsageAlert(trx, alert.keyId, calendarMonth.key, lower, clock());
          await audit(trx, [
            {
              action: 'usage alerts send',
              target: alert.keyId,
              keyId: alert.keyId,
              before: null,
              after: { month: alert.month, threshold: alert.threshold, percent: alert.percent, to: alert.email },
            },
          ]);
          await send(alert);
          return true;
        });
        if (mailed) sent.push({ ...alert, sent: true });
      }
      return sent;
    },

    async showKey(id) {
      const now = clock();
      const record = await existing(id);
      const month = calendarMonthOf(now);
      return { ...viewOf(record, now), usage: usageOf(record, month, await callsInMonth(db, id, month.key), now) };
    },

    async revokeKey(id, reason) {
      const text = optionalText(reason, 'reason', 500);
      const record = await existing(id);
      if (record.status === 'revoked')
        throw new OperatorError(
          `key ${id} was already revoked on ${isoSeconds(record.revokedAt ?? new Date(0))}`,
          'conflict',
        );
      return changeKey(
        id,
        (trx) => revokeKey(trx, id, text, clock()),
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

    async usage(id, month) {
      const calendarMonth = monthOf(month, clock());
      const record = await existing(id);
      return usageOf(record, calendarMonth, await callsInMonth(db, id, calendarMonth.key), clock());
    },

    async usageReport(month) {
      const calendarMonth = monthOf(month, clock());
      const [records, calls] = await Promise.all([listKeys(db), usageInMonth(db, calendarMonth.key)]);
      const now = clock();
      return records.map((record) => usageOf(record, calendarMonth, calls.get(record.id) ?? 0, now));
    },

    async usageHistory(id, range) {
      if (id !== unknownKeyBucket) await existing(id);
      const now = clock();
      const from = range.from ? requireDate(range.from, 'from') : calendarMonthOf(now).start;
      const to = range.to ? requireDate(range.to, 'to') : new Date(now.getTime() + 1);
      if (from.getTime() >= to.getTime())
        throw new OperatorError(`from must be before to, got ${isoSeconds(from)} and ${isoSeconds(to)}`);
      const rows = await historyOf(db, id, { from, to }, range.by);
      return rows.map((row) => ({ start: isoSeconds(row.start), outcome: row.outcome, calls: row.calls }));
    },

    async setUsage(id, calls, month) {
      requireWholeNumber(calls, 'calls', 0, 2_147_483_647);
      const calendarMonth = monthOf(month, clock());
      const record = await existing(id);
      await inTransaction(db, async (trx) => {
        const before = await setCallsInMonth(trx, id, calendarMonth.key, calls);
        await audit(trx, [
          {
            action: 'usage set',
            target: id,
            keyId: id,
            before: { month: calendarMonth.key.slice(0, 7), calls: before },
            after: { month: calendarMonth.key.slice(0, 7), calls },
          },
        ]);
      });
      return usageOf(record, calendarMonth, calls, clock());
    },

    usageSignals(month, thresholds = defaultSignalThresholds) {
      return signalsIn(month, thresholds);
    },

    async sendUsageSignals(month, thresholds, send) {
      const calendarMonth = monthOf(month, clock());
      const signals = await signalsIn(month, thresholds ?? defaultSignalThresholds);
      return inTransaction(db, async (trx) => {
        const claimed = await claimSignalAlerts(trx, calendarMonth.key, signals, clock());
        const fresh = signals.filter((signal) => claimed.has(`${signal.keyId} ${signal.signal}`));
        if (fresh.length === 0) return [];
        await audit(trx, [
          {
            action: 'usage signals send',
            target: `${fresh.length} signs of broken terms`,
            keyId: null,
            before: null,
            after: {
              month: calendarMonth.key.slice(0, 7),
              signals: fresh.map((signal) => ({ keyId: signal.keyId, signal: signal.signal })),
            },
          },
        ]);
        await send(fresh);
        return fresh;
      });
    },

    async recordAction(action) {
      await audit(db, [{ ...action, keyId: action.keyId ?? null }]);
    },

    async atomically(work) {
      const changedKeys: string[] = [];
      const result = await inTransaction(db, (trx) =>
        work(createOperatorApi({ db: trx }, { ...options, onKeyChanged: (id) => changedKeys.push(id) }), trx),
      );
      for (const id of changedKeys) changed(id);
      return result;
    },

    async auditTrail(filter = {}) {
      if (filter.since !== undefined) requireDate(filter.since, 'since');
      const limit = filter.limit === undefined ? 1000 : requireWholeNumber(filter.limit, 'limit', 1, 100_000);
      const entries = await listAuditEntries(db, { keyId: filter.keyId, since: filter.since, limit });
      return entries.map((entry) => ({ ...entry, at: isoSeconds(entry.at) }));
    },
  };
}
