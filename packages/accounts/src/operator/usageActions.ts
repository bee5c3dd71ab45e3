import { listKeys } from '../data/apiKeys.js';
import { alertsSentInMonth, claimSignalAlerts, claimUsageAlert, findKeys } from '../data/keyOwners.js';
import { callsInMonth, usageInMonth } from '../data/monthlyUsage.js';
import { unknownKeyBucket } from '../data/usageHistoryQueries.js';
import {
  corpusSize,
  coverageInMonth,
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
  type Trial,
  sweepSignals,
  trialRotationSignals,
} from '../domain/usageSignals.js';
import { type CalendarMonth, calendarMonthOf, isoSeconds } from '../domain/calendarMonth.js';
import { inTransaction } from '../data/transaction.js';
import { OperatorError } from './operatorError.js';

import type { OperatorApi, UsageAlert } from './operatorTypes.js';
import { type OperatorContext, alertThresholds, dayMs, monthOf, requireDate, usageOf } from './operatorContext.js';

/** The operator's reads of usage and the mails about it: alerts, reports, history, signs of broken terms. */
export function usageActions(
  context: OperatorContext,
): Pick<
  OperatorApi,
  'usageAlerts' | 'sendUsageAlerts' | 'usage' | 'usageReport' | 'usageHistory' | 'usageSignals' | 'sendUsageSignals'
> {
  const { db, clock, audit, existing } = context;
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
    const trials: Trial[] = [
      ...created.map((key) => ({ ...key, kind: 'key' as const })),
      ...requested.filter((request) => !created.some((key) => key.id === request.id)),
    ];
    const order: Signal['signal'][] = ['coverage', 'sweep', 'sharing', 'trial-rotation'];
    return [
      ...coverageSignals(coverage, size, calls, thresholds),
      ...sweepSignals(sightings, thresholds),
      ...sharingSignals(sightings, thresholds),
      ...trialRotationSignals(sightings, trials, thresholds),
    ].sort((a, b) => a.subject.localeCompare(b.subject) || order.indexOf(a.signal) - order.indexOf(b.signal));
  }
  return {
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

    usageSignals(month, thresholds = defaultSignalThresholds) {
      return signalsIn(month, thresholds);
    },

    async sendUsageSignals(month, thresholds, send) {
      const calendarMonth = monthOf(month, clock());
      const signals = await signalsIn(month, thresholds ?? defaultSignalThresholds);
      return inTransaction(db, async (trx) => {
        const claimed = await claimSignalAlerts(trx, calendarMonth.key, signals, clock());
        const fresh = signals.filter((signal) => claimed.has(`${signal.subject} ${signal.signal}`));
        if (fresh.length === 0) return [];
        await audit(trx, [
          {
            action: 'usage signals send',
            target: `${fresh.length} signs of broken terms`,
            keyId: null,
            before: null,
            after: {
              month: calendarMonth.key.slice(0, 7),
              signals: fresh.map((signal) => ({
                subject: signal.subject,
                signal: signal.signal,
                involves: signal.involves,
              })),
            },
          },
        ]);
        await send(fresh);
        return fresh;
      });
    },
  };
}
