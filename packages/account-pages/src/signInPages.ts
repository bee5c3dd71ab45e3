import { html, type ProofOfWorkAsk, proofOfWorkField, proofOfWorkHead } from '@quotes/text-rules';
import { accountPage, csrfField, notice } from './accountLayout.js';

/** The pages before a session: ask for the link, "check your mail", the link's button, a link that no longer works. */

/** The sign-in form; with `proof`, the proof-of-work widget the service asks for while it is busy. */
export function signInFormPage(
  formToken: string,
  problem?: { message: string; email?: string },
  proof?: ProofOfWorkAsk,
): string {
  return accountPage(
    'Your keys',
    null,
    html`<p>Sign in to see your API keys, their calls and their allowance, to roll a key, set the origins it may be used from, ask for another plan or a renewal, or close it. Give the address your keys were issued to: a link to sign in is mailed to it.</p>
<form method="post" action="/account/sign-in-link" novalidate>
${csrfField(formToken)}
<label for="email">E-mail address<span class="hint">The address your keys were mailed to.</span></label>
<input type="email" id="email" name="email" autocomplete="email" maxlength="254" required value="${problem?.email ?? ''}"${problem ? html` aria-invalid="true" aria-describedby="email-error"` : html``}>
${problem ? html`<span class="field-error" id="email-error">${problem.message}</span>` : html``}
${proof ? proofOfWorkField(proof) : html``}
<button type="submit">Mail me a sign-in link</button>
</form>`,
    proof ? proofOfWorkHead() : html``,
  );
}

export function linkSentPage(validMinutes: number): string {
  return accountPage(
    'Check your mail',
    null,
    html`<p>If keys were issued to this address, a link to sign in is on its way to it. The link works once, for ${validMinutes} minutes.</p>
<p>No mail within a few minutes? Check the address your key came to, or ask again later.</p>`,
  );
}

export function signInButtonPage(token: string, formToken: string): string {
  return accountPage(
    'Sign in',
    null,
    html`<p>Press the button to sign in to your keys. The link works once.</p>
<form method="post" action="/account/sign-in">
${csrfField(formToken)}
<input type="hidden" name="token" value="${token}">
<button type="submit">Sign in</button>
</form>`,
  );
}

export function linkInvalidPage(): string {
  return accountPage(
    'This link does not work',
    null,
    html`<p>A sign-in link works once, for a short time. This one was used already, has expired, or was copied incompletely.</p>
<p><a href="/account">Ask for a new link</a>.</p>`,
  );
}

export function refusedPage(
  title: string,
  message: string,
  status: 'signed-out' | 'signed-in',
  csrfToken?: string,
): string {
  return accountPage(
    title,
    status === 'signed-in' && csrfToken ? { csrfToken } : null,
    html`${notice('error', message)}<p><a href="/account">Your keys</a></p>`,
  );
}

export function signedOutPage(reason: 'expired' | 'signed-out'): string {
  return accountPage(
    reason === 'expired' ? 'Signed out' : 'You are signed out',
    null,
    html`<p>${reason === 'expired' ? 'Your session ended (after 30 minutes without use, or 12 hours after signing in).' : 'Your session has ended.'}</p>
<p><a href="/account">Sign in again</a>.</p>`,
  );
}
