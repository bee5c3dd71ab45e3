import { taxonomy } from '@quotes/contract';
import {
  type HolderKey,
  type HolderRequestView,
  keyTitle,
  type RolledKey,
  rollGraces,
  rollOutcomeWords,
} from '@quotes/accounts';
import { type Html, html } from '@quotes/text-rules';
import { accountPage, csrfField, notice, type Signed } from './accountLayout.js';

/** The signed-in pages: the holder's keys, one key with its use and actions, a rolled key's new secret. */

const count = (value: number | null) => (value === null ? 'unlimited' : value.toLocaleString('en-US'));
const stateText: Record<HolderKey['state'], string> = { active: 'active', expired: 'expired', revoked: 'closed' };

/** An instant kept on one line: a phone's narrow column would break it at a hyphen. */
const instant = (iso: string) => html`<time datetime="${iso}">${iso}</time>`;

function keyFacts(key: HolderKey): Html {
  return html`<dl>
<dt>Key</dt><dd><code>${key.id}</code></dd>
<dt>Application</dt><dd>${key.client}</dd>
<dt>Secret</dt><dd><code>${key.prefix}…</code>${key.previousSecretUntil ? html`; the secret before it works until ${instant(key.previousSecretUntil)}` : html``}</dd>
<dt>Plan</dt><dd>${key.plan}</dd>
<dt>State</dt><dd>${stateText[key.state]}${key.state === 'revoked' && key.revokedBecause ? html` (${key.revokedBecause})` : html``}</dd>
<dt>Expires</dt><dd>${key.expiresAt ? instant(key.expiresAt) : 'never'}</dd>
<dt>Allowed origins</dt><dd>${key.allowedOrigins.length === 0 ? 'none (server-side calls only)' : key.allowedOrigins.join(', ')}</dd>
${
  key.state === 'revoked'
    ? html`<dt>Closed</dt><dd>${key.revokedAt ? instant(key.revokedAt) : ''}</dd>`
    : html`<dt>Calls this period</dt><dd>${count(key.usage.calls)} used, ${count(key.usage.remaining)} left of ${count(key.usage.limit)}, until ${instant(key.resets)}. ${key.resetWords}.</dd>`
}
</dl>`;
}

function requestRows(requests: readonly HolderRequestView[]): Html {
  if (requests.length === 0) return html``;
  return html`<h2>Your requests</h2>
<table><thead><tr><th scope="col">Request</th><th scope="col">For</th><th scope="col">Asked</th><th scope="col">State</th></tr></thead>
<tbody>${requests.map(
    (request) =>
      html`<tr><td>${request.id}</td><td>${request.kind === 'plan-change' ? `plan ${request.plan}` : 'renewal'}</td><td>${request.createdAt}</td><td>${request.status}${request.rejectedBecause ? html`: ${request.rejectedBecause}` : html``}</td></tr>`,
  )}</tbody></table>`;
}

export function keysPage(signed: Signed, keys: readonly HolderKey[], requests: readonly HolderRequestView[]): string {
  return accountPage(
    'Your keys',
    signed,
    html`${
      keys.length === 0
        ? html`<p>No key is held by this address.</p>`
        : html`<div class="keys">${[
            ...keys.filter((key) => key.state !== 'revoked'),
            ...keys.filter((key) => key.state === 'revoked'),
          ].map(
            (key) =>
              html`<section class="key" data-key="${key.id}"><h2><a href="/account/keys/${key.id}">${keyTitle(key)}</a></h2>${keyFacts(key)}</section>`,
          )}</div>`
    }
${requestRows(requests)}`,
  );
}

export interface KeyPageParts {
  readonly charts: readonly Html[];
  /** Refused calls over the longest period shown, by outcome, in words. */
  readonly refusals: readonly { outcome: string; reason: string; calls: number }[];
  /** The heading of the refusals, naming the window they were counted over. */
  readonly refusalsTitle: string;
  readonly requests: readonly HolderRequestView[];
  readonly done?: string;
  readonly problem?: { form: string; message: string };
  readonly values?: Record<string, string>;
}

const problemFor = (parts: KeyPageParts, form: string) =>
  parts.problem?.form === form ? notice('error', parts.problem.message) : html``;

function actions(signed: Signed, key: HolderKey, parts: KeyPageParts): Html {
  if (key.state === 'revoked')
    return html`${parts.problem ? notice('error', parts.problem.message) : html``}<p>This key is closed: nothing more can be done with it.</p>`;
  const base = `/account/keys/${key.id}`;
  const origins = parts.values?.origins ?? key.allowedOrigins.join('\n');
  return html`<h2>Roll the key</h2>
<p>A new secret replaces this one (the same key: its plan, calls and history stay). Choose "at once" when the key may have leaked; give your application time to change when it has not.</p>
${
  key.previousSecretUntil
    ? html`<p class="notice" id="running-grace">The secret before this one still works until ${key.previousSecretUntil}. Rolling "at once" now keeps it until then; a roll with a grace waits until it has ended.</p>`
    : html``
}
${problemFor(parts, 'roll')}
<form method="post" action="${base}/roll">
${csrfField(signed.csrfToken)}
<fieldset><legend>The current secret stops working</legend>
${rollGraces.map(
  (grace) =>
    html`<label class="check"><input type="radio" name="grace" value="${grace.id}" required> ${grace.label}</label>`,
)}
</fieldset>
<button type="submit">Roll the key</button>
</form>

<h2>Allowed browser origins</h2>
<p>Web pages on these origins may call the API with this key (scheme://host[:port], one per line; scheme://host:* for any port). Calls from servers are not restricted.</p>
${problemFor(parts, 'origins')}
<form method="post" action="${base}/origins">
${csrfField(signed.csrfToken)}
<label for="origins">Origins</label>
<textarea id="origins" name="origins" maxlength="20000">${origins}</textarea>
<button type="submit">Save the origins</button>
</form>

<h2>Ask for another plan or a renewal</h2>
<p>The operator decides and answers by mail to the key's address.</p>
${problemFor(parts, 'requests')}
<form method="post" action="${base}/requests">
${csrfField(signed.csrfToken)}
<fieldset><legend>What you ask for</legend>
<label class="check"><input type="radio" name="kind" value="plan-change" checked> another plan</label>
<label class="check"><input type="radio" name="kind" value="renewal"> a renewal of the key's expiry</label>
</fieldset>
<label for="plan">Plan (for another plan)</label>
<select id="plan" name="plan">${taxonomy.plans.map(
    (plan) =>
      html`<option value="${plan}"${plan === (parts.values?.plan ?? key.plan) ? html` selected` : html``}>${plan}</option>`,
  )}</select>
<label for="reason">Why<span class="hint">One or a few lines for the operator, at most 1,000 characters.</span></label>
<textarea id="reason" name="reason" maxlength="1000" required>${parts.values?.reason ?? ''}</textarea>
<button type="submit">Send the request</button>
</form>

<h2>Allowance mails</h2>
<p>${key.allowanceMails ? 'A mail reaches you when the key has used 80% and 100% of its allowance.' : 'You get no mail when the key nears or reaches its allowance.'}</p>
${problemFor(parts, 'alerts')}
<form method="post" action="${base}/alerts">
${csrfField(signed.csrfToken)}
<input type="hidden" name="mails" value="${key.allowanceMails ? 'off' : 'on'}">
<button type="submit">${key.allowanceMails ? 'Turn the allowance mails off' : 'Turn the allowance mails on'}</button>
</form>

<h2>Close the key</h2>
<p>A closed key is refused from then on, for good. Its history stays.</p>
${problemFor(parts, 'close')}
<form method="post" action="${base}/close">
${csrfField(signed.csrfToken)}
<label class="check"><input type="checkbox" name="confirm" value="yes" required> I want to close ${keyTitle(key)} for good</label>
<button class="danger" type="submit">Close the key</button>
</form>`;
}

/** What the action just done did, in the key's state after it. */
const doneText: Record<string, (key: HolderKey) => string> = {
  origins: (key) =>
    key.allowedOrigins.length === 0
      ? 'Allowed origins saved: none, so only server-side calls are taken.'
      : `Allowed origins saved: ${key.allowedOrigins.join(', ')}.`,
  requests: () => 'Your request is with the operator; the answer comes by mail.',
  close: () => 'The key is closed: its calls are refused from now on.',
  alerts: (key) =>
    key.allowanceMails
      ? 'Allowance mails are on: a mail comes at 80% and 100% of the allowance.'
      : 'Allowance mails are off: no mail comes as the key nears or reaches its allowance.',
};

export function keyPage(signed: Signed, key: HolderKey, parts: KeyPageParts): string {
  const done = parts.done && Object.hasOwn(doneText, parts.done) ? doneText[parts.done]!(key) : undefined;
  return accountPage(
    `Key ${keyTitle(key)}`,
    signed,
    html`${done ? notice('info', done) : html``}
${keyFacts(key)}
<h2>Calls</h2>
${parts.charts}
<h2>${parts.refusalsTitle}</h2>
${
  parts.refusals.length === 0
    ? html`<p>No call was refused.</p>`
    : html`<table class="refusals"><thead><tr><th scope="col">Why</th><th scope="col">Calls</th></tr></thead>
<tbody>${parts.refusals.map((row) => html`<tr><td>${row.reason}</td><td>${row.calls.toLocaleString('en-US')}</td></tr>`)}</tbody></table>`
}
${actions(signed, key, parts)}
${requestRows(parts.requests)}
<p><a href="/account">All your keys</a></p>`,
  );
}

export function rolledPage(signed: Signed, rolled: RolledKey): string {
  const grace = rollOutcomeWords(rolled);
  return accountPage(
    'Your new secret',
    signed,
    html`<p>The new secret of the key ${keyTitle(rolled)}, shown this once (only its hash is kept): copy it now.</p>
<p class="secret" id="new-key">${rolled.key}</p>
<p>${grace} A mail to the key's address says so too.</p>
<p><a href="/account/keys/${rolled.id}">Back to the key</a></p>`,
  );
}
