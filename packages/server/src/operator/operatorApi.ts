import { rules, taxonomy } from '@quotes/contract';
import type { Kysely } from 'kysely';
import { type ApiKeyRecord, findKeyById, findPlan, insertKey, listKeys, renewKey, revokeKey } from '../data/apiKeys.js';
import { callsInMonth, setCallsInMonth, usageInMonth } from '../data/monthlyUsage.js';
import type { Database } from '@quotes/database';
import { type CalendarMonth, calendarMonthOf, isoSeconds, parseMonth } from '../domain/calendarMonth.js';
import { type Clock, systemClock } from '../domain/clock.js';
import { keyStanding } from '../domain/keyStanding.js';
import { effectiveLimits, plansWhere, remainingCalls } from '../domain/plans.js';
import { displayPrefix, generateApiKey, generateKeyId, hashApiKey } from '../keys/apiKeySecret.js';

/** A mistake in the operator's input: reported as one line, never a stack trace. */
export class OperatorError extends Error {
  override name = 'OperatorError';
}

export interface CreateKeyInput {
  client: string;
  plan: string;
  email?: string | null;
  /** Optional expiry; a plan with a validity (trial) defaults to issue + validity and cannot exceed it. */
  expiresAt?: Date | null;
  /** Enterprise only: calls per month (absent: unlimited). */
  monthlyCalls?: number | null;
  /** Enterprise only: largest page, 1-1000 (absent: the plan's). */
  maxLimit?: number | null;
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
}

export interface UsageView {
  keyId: string;
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
  listKeys(): Promise<KeyView[]>;
  showKey(id: string): Promise<KeyView & { usage: UsageView }>;
  revokeKey(id: string, reason?: string | null): Promise<KeyView>;
  renewKey(id: string, until: Date): Promise<KeyView>;
  usage(id: string, month?: string): Promise<UsageView>;
  usageReport(month?: string): Promise<UsageView[]>;
  /** Sets a key's count for a month (e.g. to use an allowance up for a test of the 429). */
  setUsage(id: string, calls: number, month?: string): Promise<UsageView>;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const dayMs = 86_400_000;

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
  };
}

function usageOf(record: ApiKeyRecord, month: CalendarMonth, calls: number): UsageView {
  const limit = effectiveLimits(record.plan, record.overrides).monthlyCalls;
  return {
    keyId: record.id,
    client: record.client,
    plan: record.plan.id,
    month: month.key.slice(0, 7),
    calls,
    limit,
    remaining: remainingCalls(limit, calls),
  };
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
  } = {},
): OperatorApi {
  const { db } = database;
  const clock = options.clock ?? systemClock;
  const changed = options.onKeyChanged ?? (() => undefined);

  async function existing(id: string): Promise<ApiKeyRecord> {
    const record = await findKeyById(db, id);
    if (!record) throw new OperatorError(`no key with id "${id}" (see: keys list)`);
    return record;
  }

  return {
    async createKey(input) {
      const client = input.client.trim();
      if (client.length < 1 || client.length > 200) throw new OperatorError('client must be 1 to 200 characters');
      const email = input.email?.trim() || null;
      if (email !== null && (email.length > 320 || !emailPattern.test(email)))
        throw new OperatorError(`email "${email}" is not an e-mail address`);
      if (!taxonomy.plans.includes(input.plan))
        throw new OperatorError(`plan must be one of ${taxonomy.plans.join(', ')}, got "${input.plan}"`);
      const plan = await findPlan(db, input.plan);
      if (!plan) throw new OperatorError(`plan "${input.plan}" is not in the plans table (are migrations applied?)`);
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
      await insertKey(db, {
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
      });
      return {
        id,
        key,
        client,
        plan: plan.id,
        expires_at: expiresAt && isoSeconds(expiresAt),
        prefix: displayPrefix(key),
      };
    },

    async listKeys() {
      const now = clock();
      return (await listKeys(db)).map((record) => viewOf(record, now));
    },

    async showKey(id) {
      const now = clock();
      const record = await existing(id);
      const month = calendarMonthOf(now);
      return { ...viewOf(record, now), usage: usageOf(record, month, await callsInMonth(db, id, month.key)) };
    },

    async revokeKey(id, reason) {
      const record = await existing(id);
      if (record.status === 'revoked')
        throw new OperatorError(`key ${id} was already revoked on ${isoSeconds(record.revokedAt ?? new Date(0))}`);
      const text = reason?.trim() || null;
      if (text !== null && text.length > 500) throw new OperatorError('reason must be at most 500 characters');
      if (!(await revokeKey(db, id, text, clock())))
        throw new OperatorError(`key ${id} could not be revoked (revoked meanwhile?)`);
      changed(id);
      return viewOf(await existing(id), clock());
    },

    async renewKey(id, until) {
      requireDate(until, 'until');
      const now = clock();
      const record = await existing(id);
      if (record.status === 'revoked')
        throw new OperatorError(`key ${id} is revoked; a revoked key cannot be renewed: create a new one`);
      if (until.getTime() <= now.getTime())
        throw new OperatorError(`until must be in the future, got ${isoSeconds(until)}`);
      if (!(await renewKey(db, id, until)))
        throw new OperatorError(`key ${id} could not be renewed (revoked meanwhile?)`);
      changed(id);
      return viewOf(await existing(id), clock());
    },

    async usage(id, month) {
      const calendarMonth = monthOf(month, clock());
      const record = await existing(id);
      return usageOf(record, calendarMonth, await callsInMonth(db, id, calendarMonth.key));
    },

    async usageReport(month) {
      const calendarMonth = monthOf(month, clock());
      const [records, calls] = await Promise.all([listKeys(db), usageInMonth(db, calendarMonth.key)]);
      return records.map((record) => usageOf(record, calendarMonth, calls.get(record.id) ?? 0));
    },

    async setUsage(id, calls, month) {
      requireWholeNumber(calls, 'calls', 0, 2_147_483_647);
      const calendarMonth = monthOf(month, clock());
      const record = await existing(id);
      await setCallsInMonth(db, id, calendarMonth.key, calls);
      return usageOf(record, calendarMonth, calls);
    },
  };
}
