import { busiestKeys, pendingKeyRequests } from '../../data/consoleQueries.js';
import { historyOf } from '@quotes/accounts';
import { calendarMonthOf, isoSeconds } from '@quotes/accounts/rules';
import type { ConsoleContext } from '../consoleContext.js';
import type { ConsoleSession } from '../consoleSessions.js';
import { html } from '../consoleHtml.js';
import { refusalReason } from '@quotes/service-base/problems';
import { chartFigure, lastDays, servedAndRefused } from '@quotes/text-rules';
import { consolePage, count, dataTable, involvedLinks, keyLink, requestLink } from './layout.js';

/** The service at a glance: calls per day, refusals, the busiest keys, what needs the operator. */
export async function overviewPage(context: ConsoleContext, session: ConsoleSession): Promise<string> {
  const now = context.clock();
  const operator = context.operator(session);
  const ninety = lastDays(now, 90);
  const thirty = lastDays(now, 30);
  const month = calendarMonthOf(now);
  const [rows, busiest, nearAllowance, signals, pending] = await Promise.all([
    historyOf(context.db, null, ninety, 'day'),
    busiestKeys(context.db, { from: month.start, to: month.next }, 10),
    operator.usageAlerts(),
    operator.usageSignals(undefined, context.signalThresholds),
    pendingKeyRequests(context.db, 20),
  ]);
  const recent = rows.filter((row) => row.start >= thirty.from);
  const refusals = new Map<string, number>();
  for (const row of recent)
    if (row.outcome !== 'served') refusals.set(row.outcome, (refusals.get(row.outcome) ?? 0) + row.calls);

  const body = html`
<section class="charts">
${chartFigure(servedAndRefused({ id: 'calls-30', title: 'Calls per day, last 30 days (UTC)' }, recent, { ...thirty, by: 'day' }))}
${chartFigure(servedAndRefused({ id: 'calls-90', title: 'Calls per day, last 90 days (UTC)' }, rows, { ...ninety, by: 'day' }))}
</section>
<section><h2>Refusals by reason, last 30 days</h2>
${dataTable(
  ['reason', 'calls'],
  [...refusals].sort((a, b) => b[1] - a[1]).map(([outcome, calls]) => [refusalReason(outcome), count(calls)]),
  'No call was refused.',
)}</section>
<section><h2>Busiest keys this month</h2>
${dataTable(
  ['key', 'prefix', 'client', 'plan', 'served'],
  busiest.map((key) => [keyLink(key.keyId), key.prefix, key.client, key.plan, count(key.calls)]),
  'No key was served this month.',
)}</section>
<section><h2>Keys near their allowance</h2>
${dataTable(
  ['key', 'client', 'plan', 'calls', 'allowance', 'used'],
  nearAllowance.map((alert) => [
    keyLink(alert.keyId),
    alert.client,
    alert.plan,
    count(alert.calls),
    count(alert.limit),
    `${alert.percent}%`,
  ]),
  'No key has used 80% of its allowance.',
)}</section>
<section><h2>Signs of broken terms this month</h2>
${dataTable(
  ['signal', 'keys and requests', 'evidence'],
  signals.map((signal) => [signal.signal, involvedLinks(signal.involves), signal.evidence]),
  'No signal.',
)}</section>
<section><h2>Pending key requests</h2>
${dataTable(
  ['request', 'asked', 'e-mail', 'application', 'plan', 'waiting because'],
  pending.map((request) => [
    requestLink(request.id),
    isoSeconds(request.createdAt),
    request.email,
    request.application,
    request.plan,
    request.reasons.join('; ') || '-',
  ]),
  'No request waits for an answer.',
)}</section>`;
  return consolePage('Overview', session, body, { charts: true });
}
