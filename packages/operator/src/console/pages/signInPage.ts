import { html } from '../consoleHtml.js';
import { consolePage } from './layout.js';

/** What anyone without a session sees: how to get one, and why a link may have failed. */
export function signInPage(reason: 'none' | 'used' | 'expired'): string {
  const why = {
    none: 'This console needs a session.',
    used: 'That sign-in link was already used, has expired, or is not this console’s: each link signs in once, within 15 minutes.',
    expired: 'The session expired or was signed out.',
  }[reason];
  return consolePage(
    'Sign in',
    null,
    html`<p>${why}</p>
<p>Open a sign-in link: the one <code>quotes-admin console</code> printed when it started, or a new one from <code>quotes-admin console link</code> (the console keeps running). Each works once, within 15 minutes.</p>`,
  );
}
