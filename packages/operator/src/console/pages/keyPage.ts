import { keySightings } from '../../data/consoleQueries.js';
import { type AuditView, type KeyView, type RolledKey, rollOutcomeWords } from '@quotes/accounts';
import type { ConsoleContext } from '../consoleContext.js';
import type { ConsoleSession } from '../consoleSessions.js';
import { type Html, html } from '../consoleHtml.js';
import { chartFigure, lastDays, lastHours, servedAndRefused } from '@quotes/text-rules';
import { type ActionArguments, type ActionInput, keyActions } from './keyActions.js';
import { consolePage, count, csrfField, dataTable, notice } from './layout.js';
import { keyAuditSection } from './auditPage.js';

function facts(
  key: KeyView & { usage: { calls: number; limit: number | null; periodStart: string; periodEnd: string } },
): Html {
  const rows: [string, string | null][] = [
    [
      'prefix',
      `${key.prefix}...${key.previousSecretUntil ? `; the secret before it works until ${key.previousSecretUntil}` : ''}`,
    ],
    ['client', key.client],
    ['e-mail', key.email],
    ['plan', key.plan],
    [
      'state',
      key.state +
        (key.revokedCategory
          ? ` (category ${key.revokedCategory}${key.revokedReason ? `: ${key.revokedReason}` : ''})`
          : ''),
    ],
    [
      'allowance period',
      `${count(key.usage.calls)} of ${count(key.usage.limit)} calls, ${key.usage.periodStart} to ${key.usage.periodEnd}`,
    ],
    ['created', key.createdAt],
    ['expires', key.expiresAt ?? 'never'],
    ['revoked', key.revokedAt],
    ['browser origins', key.allowedOrigins.join(', ') || 'none'],
  ];
  return html`<dl class="facts">${rows.map(([name, value]) => html`<dt>${name}</dt><dd>${value ?? '-'}</dd>`)}</dl>`;
}

/** Each action as a form that leads to its confirm step. */
function actionForms(key: KeyView): Html {
  if (key.state === 'revoked') return html`<p class="empty">A revoked key takes no action.</p>`;
  return html`<div class="actions">${Object.keys(keyActions).map((name) => actionForm(key, name, {}))}</div>`;
}

export async function keyPage(
  context: ConsoleContext,
  session: ConsoleSession,
  id: string,
  done: string | undefined,
): Promise<string> {
  const operator = context.operator(session);
  const now = context.clock();
  const days = lastDays(now, 30);
  const hours = lastHours(now, 48);
  const key = await operator.showKey(id);
  const [byDay, byHour, sightings, signals, audit] = await Promise.all([
    operator.usageHistory(id, { ...days, by: 'day' }),
    operator.usageHistory(id, { ...hours, by: 'hour' }),
    keySightings(context.db, id, {
      from: days.from.toISOString().slice(0, 10),
      to: days.to.toISOString().slice(0, 10),
    }),
    operator.usageSignals(undefined, context.signalThresholds),
    keyAuditSection(context, id, {}),
  ]);
  const asRows = (entries: typeof byDay) =>
    entries.map((entry) => ({ start: new Date(entry.start), outcome: entry.outcome, calls: entry.calls }));
  const outcomes = new Map<string, number>();
  for (const entry of byDay) outcomes.set(entry.outcome, (outcomes.get(entry.outcome) ?? 0) + entry.calls);
  const seen = (kind: 'network' | 'origin') =>
    dataTable(
      [kind, 'days seen', 'last seen'],
      sightings.filter((row) => row.kind === kind).map((row) => [row.value, count(row.days), row.lastDay]),
      `No ${kind} recorded in the last 30 days.`,
    );
  const doneText = done && keyActions[done] ? keyActions[done].done : undefined;
  const body = html`${notice('done', doneText)}
${facts(key)}
<section class="charts">
${chartFigure(servedAndRefused({ id: 'key-days', title: 'Calls per day, last 30 days (UTC)' }, asRows(byDay), { ...days, by: 'day' }))}
${chartFigure(servedAndRefused({ id: 'key-hours', title: 'Calls per hour, last 48 hours (UTC)' }, asRows(byHour), { ...hours, by: 'hour' }))}
</section>
<section><h2>Outcomes, last 30 days</h2>
${dataTable(
  ['outcome', 'calls'],
  [...outcomes].sort((a, b) => b[1] - a[1]).map(([outcome, calls]) => [outcome, count(calls)]),
  'No calls in the last 30 days.',
)}</section>
<section class="columns"><div><h2>Networks</h2>${seen('network')}</div><div><h2>Browser origins</h2>${seen('origin')}</div></section>
<section><h2>Signs of broken terms this month</h2>
${dataTable(
  ['signal', 'evidence'],
  signals.filter((signal) => signal.involves.keys.includes(id)).map((signal) => [signal.signal, signal.evidence]),
  'No signal.',
)}</section>
<section><h2>Actions</h2>${actionForms(key)}</section>
<section><h2>Audit</h2>${audit}</section>`;
  return consolePage(`Key ${id}`, session, body, { charts: true });
}

/** The form that leads to an action's confirm step (a GET: nothing changes until confirmed). */
function actionForm(key: KeyView, name: string, input: ActionInput, idPrefix = ''): Html {
  const action = keyActions[name]!;
  return html`<form method="get" action="/keys/${encodeURIComponent(key.id)}/confirm/${name}" class="action">
<h3>${action.title}</h3>
${action.fields(key, input)}
<label for="reason-${idPrefix}${name}">Reason (kept in the audit, never shown to the holder)<input type="text" id="reason-${idPrefix}${name}" name="reason" maxlength="500" value="${input.reason ?? ''}"></label>
<button type="submit">${action.title}...</button>
</form>`;
}

/**
 * An action's step: with the form's values read (`args`), what will happen in a sentence and the
 * button that does it; with a value refused (`error` and no `args`), the form again with the
 * error, to correct.
 */
export function confirmPage(
  session: ConsoleSession,
  key: KeyView,
  name: string,
  input: ActionInput,
  step: { args?: ActionArguments; error?: string },
): string {
  const action = keyActions[name]!;
  const title = `${action.title}: ${key.id}`;
  if (!step.args)
    return consolePage(title, session, html`${notice('error', step.error)}${actionForm(key, name, input, 'again-')}`);
  const hidden = Object.entries(input).map(
    ([field, value]) => html`<input type="hidden" name="${field}" value="${value}">`,
  );
  const body = html`${notice('error', step.error)}
<p class="confirm">${action.summary(key, input, step.args)}</p>
${input.reason ? html`<p>Reason: ${input.reason}</p>` : ''}
<form method="post" action="/keys/${encodeURIComponent(key.id)}/actions/${name}">
${csrfField(session)}${hidden}
<button type="submit" class="danger">Confirm: ${action.title.toLowerCase()}</button>
<a href="/keys/${encodeURIComponent(key.id)}">Cancel</a>
</form>`;
  return consolePage(title, session, body);
}

/** A rolled key's new secret: shown this once, never stored or logged. */
export function rolledPage(session: ConsoleSession, issued: RolledKey): string {
  const body = html`<p class="notice done" role="status">${rollOutcomeWords(issued)} Hand this new key to the customer: it is shown only here, once.</p>
<p><code class="secret">${issued.key}</code></p>
<p><a href="/keys/${encodeURIComponent(issued.id)}">Back to ${issued.id}</a></p>`;
  return consolePage(`New secret for ${issued.id}`, session, body);
}

export type { AuditView };
