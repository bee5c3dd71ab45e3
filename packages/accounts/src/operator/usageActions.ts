import { allowedOriginsOfKeys, listKeys } from '../data/apiKeys.js';
import { claimSignalAlerts } from '../data/keyOwners.js';
import {
  allowanceMailsOff,
  allowanceNoticesOf as noticesOfPeriods,
  claimNotices,
  recordNotices,
  releaseNotice,
  settleNotice,
} from '../data/holderNotices.js';
import { alertOf, allowanceNoticesOf, allowanceStandings, periodName } from '../notices/allowanceStandings.js';
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
import { type OperatorContext, dayMs, monthOf, requireDate, usageOf } from './operatorContext.js';

/** The operator's reads of usage and the mails about it: alerts, reports, history, signs of broken terms. */
export function usageActions(
  context: OperatorContext,
): Pick<
  OperatorApi,
  'usageAlerts' | 'sendUsageAlerts' | 'usage' | 'usageReport' | 'usageHistory' | 'usageSignals' | 'sendUsageSignals'
> {
  const { db, clock, audit, existing } = context;
  /**
   * Keys at 80% or 100% of the allowance period in force at the end of `month` (or now): the
   * standings and notices the holders' automatic mails use (notices/holderMailSweep.ts).
   */
  async function alertsIn(month: CalendarMonth | undefined): Promise<UsageAlert[]> {
    const now = clock();
    const at = month === undefined || month.next.getTime() > now.getTime() ? now : new Date(month.next.getTime() - 1);
    const standings = (await allowanceStandings(db, at, now)).flatMap((standing) =>
      standing.threshold === undefined ? [] : [{ ...standing, threshold: standing.threshold }],
    );
    const [notices, off] = await Promise.all([
      noticesOfPeriods(
        db,
        standings.map((standing) => ({ keyId: standing.record.id, period: periodName(standing.period.start) })),
      ),
      allowanceMailsOff(
        db,
        standings.map((standing) => standing.record.id),
      ),
    ]);
    return standings.map((standing) => {
      const state = notices.get(standing.record.id)?.get(`allowance-${standing.threshold}`);
      return alertOf(standing, now, { sent: state === 'sent', mails: !off.has(standing.record.id) });
    });
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
    const allowedOrigins = await allowedOriginsOfKeys(db, [...new Set(used.map((sighting) => sighting.keyId))]);
    const order: Signal['signal'][] = ['coverage', 'sweep', 'sharing', 'trial-rotation'];
    return [
      ...coverageSignals(coverage, size, calls, thresholds),
      ...sweepSignals(sightings, thresholds),
      ...sharingSignals(sightings, thresholds, (keyId) => allowedOrigins.get(keyId) ?? []),
      ...trialRotationSignals(sightings, trials, thresholds),
    ].sort((a, b) => a.subject.localeCompare(b.subject) || order.indexOf(a.signal) - order.indexOf(b.signal));
  }
  return {
    async usageAlerts(month) {
      return alertsIn(month === undefined ? undefined : monthOf(month, clock()));
    },

    async sendUsageAlerts(month, send) {
      const sent: UsageAlert[] = [];
      for (const alert of await alertsIn(month === undefined ? undefined : monthOf(month, clock()))) {
        if (alert.sent || alert.email === null || !alert.mails) continue;
        // The same notice the servers' sweeps send: recorded once, claimed by one sender; the
        // operator's run ignores the wait a failed attempt asked for.
        const threshold = alert.threshold === 100 ? 100 : 80;
        await recordNotices(db, allowanceNoticesOf(alert.keyId, threshold, new Date(alert.periodStart)), clock());
        const notice = { keyId: alert.keyId, event: `allowance-${threshold}` as const, period: alert.periodStart };
        const [claimed] = await claimNotices(db, clock(), { limit: 1, only: notice, ignoreBackoff: true });
        if (claimed === undefined) continue;
        try {
          await send(alert);
        } catch (error) {
          await releaseNotice(db, claimed, clock());
          throw error;
        }
        await inTransaction(db, async (trx) => {
          await settleNotice(trx, claimed, 'sent', clock());
          await audit(trx, [
            {
              action: 'usage alerts send',
              target: alert.keyId,
              keyId: alert.keyId,
              before: null,
              after: { period: alert.periodStart, threshold: alert.threshold, percent: alert.percent, to: alert.email },
            },
          ]);
        });
        sent.push({ ...alert, sent: true });
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
