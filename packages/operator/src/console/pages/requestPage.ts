import { taxonomy } from '@quotes/contract';
import type { KeyRequestView } from '@quotes/accounts';
import type { ConsoleSession } from '../consoleSessions.js';
import { fieldText, type Html, html } from '../consoleHtml.js';
import { categorySelect } from './keyActions.js';
import { consolePage, csrfField, keyLink, notice } from './layout.js';

/** What the operator can do with a request from its page; each through the request service. */
export const requestDecisions = {
  approve:
    'Approved: the key was made, or changed as asked, and the decision mailed to the address the request proved.',
  reject: "Rejected: the category's words were mailed to the person who asked.",
} as const;
export type RequestDecision = keyof typeof requestDecisions;

/** The form's values, kept when a decision is refused so nothing typed is lost. */
export interface DecisionInput {
  plan?: string;
  monthlyCalls?: string;
  /** Present when the box is ticked. */
  unlimited?: string;
  category?: string;
  reason?: string;
}

const kindText: Record<KeyRequestView['kind'], string> = {
  key: 'a new key',
  'plan-change': "a change of plan for the holder's key",
  renewal: "a renewal of the holder's key (its expiry a year on)",
};

/** What approving does, in the words of the approve button's paragraph. */
function approvalText(request: KeyRequestView): Html {
  if (request.kind === 'plan-change')
    return html`<p>The key ${request.forKeyId} moves to the plan chosen; its holder is mailed the decision.</p>`;
  if (request.kind === 'renewal')
    return html`<p>The key ${request.forKeyId} is valid a year longer; its holder is mailed the decision.</p>`;
  return html`<p>The key is made as by <code>keys create</code> and mailed to ${request.email}.</p>`;
}

function facts(request: KeyRequestView): Html {
  const rows: [string, Html | string | null][] = [
    ['asks for', kindText[request.kind]],
    ['about the key', request.forKeyId ? keyLink(request.forKeyId) : null],
    ['status', request.status],
    ['e-mail', request.email],
    ['name', request.name],
    ['application', request.application],
    ['client', request.client],
    ['plan asked for', request.plan],
    ['use', request.use],
    ['waiting because', request.reasons.join('; ') || null],
    ['address', `${request.clientAddress} (network ${request.clientNetwork})`],
    ['asked', request.createdAt],
    ['confirmed', request.confirmedAt],
    ['decided', request.decidedAt],
    ['key', request.keyId ? keyLink(request.keyId) : null],
    [
      'rejected for',
      request.rejectionCategory &&
        `${request.rejectionCategory}${request.rejectionReason ? `: ${request.rejectionReason}` : ''}`,
    ],
  ];
  return html`<dl class="facts">${rows.map(([name, value]) => html`<dt>${name}</dt><dd>${value ?? '-'}</dd>`)}</dl>`;
}

function decisionForms(session: ConsoleSession, request: KeyRequestView, input: DecisionInput): Html {
  if (request.status !== 'pending')
    return html`<p class="empty">Only a pending (confirmed) request is decided; this one is ${request.status}.</p>`;
  const path = `/requests/${encodeURIComponent(request.id)}`;
  const chosen = input.plan ?? request.plan;
  return html`<div class="actions">
<form method="post" action="${path}/approve" class="action">
<h3>Approve</h3>
${csrfField(session)}
<label for="plan">Plan<select id="plan" name="plan">${taxonomy.plans.map(
    (plan) => html`<option value="${plan}"${plan === chosen ? html` selected` : ''}>${plan}</option>`,
  )}</select></label>
<label for="monthlyCalls">Monthly calls (enterprise only)<input type="text" id="monthlyCalls" name="monthlyCalls" inputmode="numeric" value="${input.monthlyCalls ?? ''}"></label>
<label for="unlimited" class="check"><input type="checkbox" id="unlimited" name="unlimited" value="yes"${input.unlimited === undefined ? '' : html` checked`}> Unlimited (enterprise only: no monthly allowance)</label>
${approvalText(request)}
<button type="submit">${request.kind === 'key' ? 'Approve and mail the key' : 'Approve and mail the holder'}</button>
</form>
<form method="post" action="${path}/reject" class="action">
<h3>Reject</h3>
${csrfField(session)}
${categorySelect(input.category)}
<label for="reason">Reason (kept in the audit, never mailed; at most 1000 characters)<textarea id="reason" name="reason" rows="3" maxlength="1000">${fieldText(input.reason ?? '')}</textarea></label>
<button type="submit" class="danger">Reject and mail the category</button>
</form>
</div>`;
}

/** One key request: what was asked, why it waits, and (while pending) its approve and reject forms. */
export function requestPage(
  session: ConsoleSession,
  request: KeyRequestView,
  state: { done?: string; error?: string; input?: DecisionInput } = {},
): string {
  const doneText = state.done && state.done in requestDecisions ? requestDecisions[state.done as RequestDecision] : '';
  const body = html`${notice('done', doneText)}${notice('error', state.error)}
${facts(request)}
<section><h2>Decision</h2>${decisionForms(session, request, state.input ?? {})}</section>`;
  return consolePage(`Request ${request.id}`, session, body);
}
