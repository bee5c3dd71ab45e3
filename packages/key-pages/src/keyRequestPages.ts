import { rules } from '@quotes/contract';
import { keyRequestTextFields } from '@quotes/accounts';
import { waitingBecause } from '@quotes/accounts/rules';
import { type KeyRequestField, keyRequestFieldLabels } from './keyRequestInput.js';
import type { ParameterError } from '@quotes/service-base/problems';
import {
  type Html,
  html,
  type ProofOfWorkAsk,
  proofOfWorkField,
  proofOfWorkHead,
  siteHeader,
  textFieldHint,
} from '@quotes/text-rules';
import { trialArrival } from '@quotes/accounts/rules';
import { planHint, planLabel, planList, trialClause } from './planWords.js';

/**
 * The pages of asking for a key: the form, the terms, "check your mail", the confirmation page
 * and its outcome. Plain HTML that works without JavaScript, in the reference page's colours and
 * type, one column that reads at 320 px. Built with the escaping template: no value becomes markup.
 */

export const pageStyles = `
:root { --text: #2a2f45; --muted: #757575; --accent: #0099ff; --border: rgba(0,0,0,0.1); --panel: #f6f6f6; --bad: #c0392b; }
* { box-sizing: border-box; }
body { margin: 0; font-family: "Inter", -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif; color: var(--text); background: #fff; line-height: 1.5; font-size: 16px; }
header { border-bottom: 1px solid var(--border); background: var(--panel); }
header nav, main { max-width: 42rem; margin: 0 auto; padding: 0.75rem 1rem; }
header nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; align-items: baseline; }
header strong { margin-right: auto; }
a { color: var(--accent); }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 1rem 0; }
label { display: block; font-weight: 600; margin-top: 1rem; }
.hint { display: block; font-weight: 400; color: var(--muted); font-size: 0.875rem; }
input[type=text], input[type=email], select, textarea { display: block; width: 100%; margin-top: 0.25rem; padding: 0.5rem; font: inherit; color: inherit; border: 1px solid var(--border); border-radius: 6px; background: #fff; }
textarea { min-height: 7rem; resize: vertical; }
.check { display: flex; gap: 0.5rem; align-items: flex-start; font-weight: 400; }
.check input { margin-top: 0.35rem; }
button { margin-top: 1.25rem; padding: 0.6rem 1.25rem; font: inherit; font-weight: 600; color: #fff; background: var(--accent); border: 0; border-radius: 6px; cursor: pointer; }
.errors { border: 1px solid var(--bad); border-radius: 6px; padding: 0.5rem 1rem; color: var(--bad); }
.field-error { display: block; font-weight: 600; color: var(--bad); font-size: 0.875rem; }
.proof { margin-top: 1.25rem; }
.trap { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
table { border-collapse: collapse; width: 100%; font-size: 0.875rem; }
th, td { text-align: left; padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--border); }
`;

export const pageContentSecurityPolicy =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * The policy of a form that carries the proof-of-work widget: the same, and scripts (the widget's
 * and its worker) from the service itself; still no inline script, nothing from elsewhere.
 */
export const proofPageContentSecurityPolicy = `${pageContentSecurityPolicy}; script-src 'self'; worker-src 'self'`;

function page(title: string, body: Html, head: Html = html``): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}: Quote Retrieval Service</title>
<link rel="stylesheet" href="/keys/page.css">
${head}</head>
<body>
${siteHeader()}
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.text;
}

export type FormValues = Partial<Record<'email' | 'name' | 'application' | 'plan' | 'use' | 'accept_terms', unknown>>;

/**
 * The form; with `proof`, the proof-of-work widget the service asks for while it is busy (the
 * page then needs proofPageContentSecurityPolicy).
 */
export function requestFormPage(
  values: FormValues = {},
  errors: readonly ParameterError[] = [],
  proof?: ProofOfWorkAsk,
): string {
  // A value posted twice arrives as a list: shown as empty rather than as its parts.
  const value = (name: keyof FormValues) => (typeof values[name] === 'string' ? values[name] : '');
  // The tick is kept as the person left it (a form posts "true", a script true).
  const ticked = values.accept_terms === true || values.accept_terms === 'true' || values.accept_terms === 'on';
  const label = keyRequestFieldLabels;
  const chosen = typeof values.plan === 'string' ? values.plan : rules.plans[0]?.id;
  const options = rules.plans.map(
    (plan) =>
      html`<option value="${plan.id}"${plan.id === chosen ? html` selected` : ''}>${planLabel(plan.id)}</option>`,
  );
  // A short list that leads to the fields (each reason stands beside its field); what belongs to no field is said here.
  const onForm = (name: string) => name in keyRequestFieldLabels;
  const problems =
    errors.length === 0
      ? ''
      : html`<div class="errors" role="alert"><p>${
          errors.some((error) => onForm(error.parameter))
            ? `Please look at ${errors.filter((error) => onForm(error.parameter)).length === 1 ? 'the field' : 'the fields'} marked below:`
            : 'The request could not be read:'
        }</p><ul>${errors.map((error) =>
          onForm(error.parameter)
            ? html`<li><a href="#${error.parameter}">${keyRequestFieldLabels[error.parameter as KeyRequestField]}</a></li>`
            : html`<li>${error.message}</li>`,
        )}</ul></div>`;
  /** What the server said about a field, beside the field, and the field pointing at it. */
  const errorOf = (name: string) => errors.find((error) => error.parameter === name);
  const described = (name: string) =>
    errorOf(name)
      ? html` aria-invalid="true" aria-describedby="${name}-hint ${name}-error"`
      : html` aria-describedby="${name}-hint"`;
  const errorBeside = (name: string) => {
    const error = errorOf(name);
    return error ? html`<span class="field-error" id="${name}-error">${error.message}</span>` : '';
  };
  const { name, application, use } = keyRequestTextFields;
  return page(
    'Ask for an API key',
    html`<p>We mail a link to confirm your address. Once it is confirmed, ${trialClause()} is sent ${trialArrival}; the other plans, and any request that needs a look, wait for the operator, who approves or rejects them by mail within a few hours. One key per application; one trial per person and per network.</p>
${planList()}
${problems}
<form method="post" action="/keys/requests">
<label for="email">${label.email}<span class="hint" id="email-hint">Where the link and the key are sent.</span>${errorBeside('email')}</label>
<input type="email" id="email" name="email" required maxlength="254" autocomplete="email"${described('email')} value="${value('email')}">
<label for="name">${label.name}<span class="hint" id="name-hint">${textFieldHint(name)}</span>${errorBeside('name')}</label>
<input type="text" id="name" name="name" required maxlength="${name.maxCharacters}" autocomplete="name"${described('name')} value="${value('name')}">
<label for="application">${label.application}<span class="hint" id="application-hint">The application the key is for (one key per application). ${textFieldHint(application)}</span>${errorBeside('application')}</label>
<input type="text" id="application" name="application" required maxlength="${application.maxCharacters}"${described('application')} value="${value('application')}">
<label for="plan">${label.plan}<span class="hint" id="plan-hint">${planHint}</span>${errorBeside('plan')}</label>
<select id="plan" name="plan"${described('plan')}>${options}</select>
<label for="use">${label.use}<span class="hint" id="use-hint">${textFieldHint(use)}</span>${errorBeside('use')}</label>
<textarea id="use" name="use" required maxlength="${use.maxCharacters}"${described('use')}>${value('use')}</textarea>
<div class="trap" aria-hidden="true"><label for="homepage">Leave this empty</label><input type="text" id="homepage" name="homepage" tabindex="-1" autocomplete="off"></div>
<label class="check" for="accept_terms"><input type="checkbox" id="accept_terms" name="accept_terms" value="true" required${ticked ? html` checked` : ''}${errorOf('accept_terms') ? html` aria-invalid="true" aria-describedby="accept_terms-error"` : ''}> <span>I accept the <a href="/terms">terms of use</a>.</span></label>${errorBeside('accept_terms')}
${proof ? proofOfWorkField(proof) : ''}
<button type="submit">Ask for a key</button>
</form>`,
    proof ? proofOfWorkHead() : html``,
  );
}

export function termsPage(): string {
  return page(
    'Terms of use',
    html`<p>Keys are issued on request: you ask on <a href="/keys/request">the request page</a>, confirm your address, and the key arrives by e-mail. The plans:</p>
${planList()}
<h2>You may</h2>
<ul><li>Display quotes from the service in any application, including commercial ones.</li></ul>
<h2>You may not</h2>
<ul>
<li>Harvest the data in bulk, or resell or redistribute the raw data.</li>
<li>Build a competing service from it.</li>
<li>Share or publish a key: each key belongs to one application.</li>
<li>Circumvent the limits by automated means, including rotating trial accounts (one trial per person).</li>
</ul>
<h2>Changes</h2>
<p>Changes to these terms are announced by e-mail to every holder of an active key.</p>`,
  );
}

export function checkYourMailPage(): string {
  return page(
    'Check your mail',
    html`<p>If the address can receive mail, a link to confirm it is on its way (it works once, for 24 hours). Open it and press "Confirm"; nothing happens until then.</p>`,
  );
}

/**
 * The page a mailed link opens. The address is not proven yet, so it shows nothing the asker
 * typed beyond the address the link was sent to: a stranger's words never reach it unconfirmed.
 */
export function confirmPage(token: string, request: { plan: string; email: string }): string {
  return page(
    'Confirm your request',
    html`<p>Confirm the request for a key on the <strong>${request.plan}</strong> plan, to be sent to <strong>${request.email}</strong>. If you did not ask for a key, close this page: nothing happens without the confirmation.</p>
<form method="post" action="/keys/confirm">
<input type="hidden" name="token" value="${token}">
<button type="submit">Confirm</button>
</form>`,
  );
}

export function invalidLinkPage(): string {
  return page(
    'This link does not work',
    html`<p>The link was already used, has expired (links work for 24 hours), or was copied incompletely. <a href="/keys/request">Ask again</a> if you still need a key.</p>`,
  );
}

export function confirmedPage(outcome: 'granted' | 'waiting', email: string, reasons: readonly string[] = []): string {
  const why = reasons.length === 0 ? '' : html`<p>${waitingBecause(reasons)}</p>`;
  return page(
    'Address confirmed',
    outcome === 'granted'
      ? html`<p>Your key is on its way to <strong>${email}</strong>. The <a href="/docs">API reference</a> shows how to use it; <a href="/account">your keys' page</a> shows its calls and rolls or closes it.</p>`
      : html`<p>Thank you. Your request is with the operator, who answers by mail to <strong>${email}</strong> within a few hours.</p>
${why}`,
  );
}

/** A confirmed request the service cannot use (text stored before the rule refused it): ended, and said why. */
export function unusableRequestPage(reason: string): string {
  return page(
    'Request not accepted',
    html`<p>Your address is confirmed, but the request cannot become a key: ${reason}. Nothing more happens with it.</p>
<p><a href="/keys/request">Ask again</a> with plain text.</p>`,
  );
}

export function refusedPage(title: string, detail: string): string {
  return page(title, html`<p>${detail}</p><p><a href="/keys/request">Back to the request page</a></p>`);
}
