import type { Kysely } from 'kysely';
import type { Database } from '@quotes/database';
import type { ApiKeyRecord } from '../data/apiKeys.js';
import { callsInPeriods, type NewNotice } from '../data/holderNotices.js';
import { findKeys } from '../data/keyOwners.js';
import { allowancePeriod } from '../domain/allowancePeriod.js';
import { isoSeconds } from '../domain/calendarMonth.js';
import {
  type AllowanceThreshold,
  allowanceThresholds,
  percentOfAllowance,
  thresholdReached,
} from '../domain/holderNoticeRules.js';
import { keyStanding } from '../domain/keyStanding.js';
import { effectiveLimits, remainingCalls } from '../domain/plans.js';
import type { UsageAlert } from '../operator/operatorTypes.js';

/**
 * Where each capped key stands against its allowance in the period in force at `at`: the one
 * reading the operator's `usage alerts` list and the holders' automatic mails share.
 */
export interface AllowanceStanding {
  readonly record: ApiKeyRecord;
  readonly period: { readonly start: Date; readonly end: Date };
  readonly calls: number;
  readonly limit: number;
  readonly percent: number;
  readonly threshold: AllowanceThreshold | undefined;
}

/** A period's name in holder_notices: its start, to the second. */
export const periodName = (start: Date) => isoSeconds(start);

export async function standingsOf(
  db: Kysely<Database>,
  records: readonly ApiKeyRecord[],
  at: (record: ApiKeyRecord) => Date,
): Promise<AllowanceStanding[]> {
  const capped = records.flatMap((record) => {
    const limit = effectiveLimits(record.plan, record.overrides).monthlyCalls;
    return limit === null ? [] : [{ record, limit, period: allowancePeriod(record.plan, record, at(record)) }];
  });
  const calls = await callsInPeriods(
    db,
    capped.map((entry) => ({ keyId: entry.record.id, start: entry.period.start, end: entry.period.end })),
  );
  return capped.map(({ record, limit, period }) => {
    const used = calls.get(record.id) ?? 0;
    return {
      record,
      period,
      calls: used,
      limit,
      percent: percentOfAllowance(used, limit),
      threshold: thresholdReached(used, limit),
    };
  });
}

/** Every active key with an allowance, in the period in force at `at` (now, or a month the operator names). */
export async function allowanceStandings(db: Kysely<Database>, at: Date, now: Date): Promise<AllowanceStanding[]> {
  return standingsOf(db, await findKeys(db, { state: 'active' }, now), () => at);
}

/** The notices a threshold reached records: its own, due; below it, settled without a mail (never a late 80%). */
export function allowanceNoticesOf(keyId: string, threshold: AllowanceThreshold, periodStart: Date): NewNotice[] {
  const period = periodName(periodStart);
  return allowanceThresholds
    .filter((value) => value <= threshold)
    .map((value) => ({
      keyId,
      event: `allowance-${value}` as const,
      period,
      state: value === threshold ? ('due' as const) : ('skipped' as const),
    }));
}

/** A standing as the operator and the mail show it. */
export function alertOf(
  standing: AllowanceStanding & { threshold: AllowanceThreshold },
  now: Date,
  notice: { sent: boolean; mails: boolean },
): UsageAlert {
  const { record, period } = standing;
  return {
    keyId: record.id,
    prefix: record.keyPrefix,
    state: keyStanding(record, now),
    client: record.client,
    plan: record.plan.id,
    month: isoSeconds(period.start).slice(0, 7),
    calls: standing.calls,
    limit: standing.limit,
    remaining: remainingCalls(standing.limit, standing.calls),
    email: record.email,
    threshold: standing.threshold,
    percent: standing.percent,
    periodStart: isoSeconds(period.start),
    periodEnd: isoSeconds(period.end),
    expiresAt: record.expiresAt && isoSeconds(record.expiresAt),
    sent: notice.sent,
    mails: notice.mails,
  };
}
