import type { Kysely } from 'kysely';
import { type ApiKeyRecord, findKeyById, findPlan } from '../data/apiKeys.js';
import type { Database } from '@quotes/database';
import { type CalendarMonth, calendarMonthOf, isoSeconds, parseMonth } from '../domain/calendarMonth.js';
import { type Clock, systemClock } from '../domain/clock.js';
import { keyStanding } from '../domain/keyStanding.js';
import { effectiveLimits, remainingCalls } from '../domain/plans.js';
import { appendAuditEntries, type AuditEntry } from '../data/operatorAudit.js';
import { inTransaction } from '../data/transaction.js';
import { OperatorError } from './operatorError.js';
import { osActor } from './operatorActor.js';
import { optionalText, quoted, requirePlanName } from './operatorInput.js';

import type { KeyView, UsageView } from './operatorTypes.js';

export const dayMs = 86_400_000;

export function requireWholeNumber(value: number, name: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new OperatorError(`${name} must be a whole number from ${min} to ${max}, got ${value}`);
  return value;
}

export function requireDate(value: Date, name: string): Date {
  if (Number.isNaN(value.getTime())) throw new OperatorError(`${name} is not a valid date`);
  return value;
}

export function monthOf(text: string | undefined, now: Date): CalendarMonth {
  if (text === undefined) return calendarMonthOf(now);
  const month = parseMonth(text);
  if (!month) throw new OperatorError(`month must be YYYY-MM, got "${text}"`);
  return month;
}

export function viewOf(record: ApiKeyRecord, now: Date): KeyView {
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
    revokedCategory: record.revokedCategory,
    createdAt: isoSeconds(record.createdAt),
    allowedOrigins: [...record.allowedOrigins],
    previousSecretUntil:
      record.previousValidUntil && record.previousValidUntil.getTime() > now.getTime()
        ? isoSeconds(record.previousValidUntil)
        : null,
  };
}

export function usageOf(record: ApiKeyRecord, month: CalendarMonth, calls: number, now: Date): UsageView {
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

export function trialTaken(earlier: ApiKeyRecord, plan: string): TrialTakenError {
  const who = earlier.email
    ? `${earlier.email} / client ${quoted(earlier.client)}`
    : `client ${quoted(earlier.client)}`;
  return new TrialTakenError(
    `refused: one ${plan} per person and client, and ${who} already had ${earlier.id} (issued ${isoSeconds(earlier.createdAt)}); override with --allow-another-trial`,
    earlier,
  );
}

/** Who acts and how the operator's actions are told of their effects. */
export interface OperatorOptions {
  clock?: Clock;
  /** Called after a change to a key commits: a server in this process forgets it at once rather than at the NOTIFY. */
  onKeyChanged?: (keyId: string) => void;
  /** Who acts, as the audit records it: `os:USER` by default; a console session would be `console:SESSION`. */
  actor?: string;
  /** Why, recorded with every action this API takes (an explicit revocation reason wins). */
  reason?: string | null;
}

/** What every action of the operator shares: the database, the clock, the actor, and one audited way to change a key. */
export type OperatorContext = ReturnType<typeof operatorContext>;

export function operatorContext(database: { db: Kysely<Database> }, options: OperatorOptions = {}) {
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

  return { db, clock, changed, actor, givenReason, audit, auditedChange, changeKey, existing, planNamed };
}
