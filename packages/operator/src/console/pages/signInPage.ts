import { html } from '../consoleHtml.js';
import { consolePage } from './layout.js';

/** What anyone without a session sees: how to get one, and why a link may have failed. */
export function signInPage(reason: 'none' | 'used' | 'expired'): string {
  const why = {
    none: 'This console needs a session.',
    used: 'That sign-in link was already used, or is not this console’s: each link signs in once.',
    expired: 'The session expired or was signed out.',
  }[reason];
  return consolePage(
    'Sign in',
    null,
    html`<p>${why}</p>
<p>Open the sign-in URL that <code>quotes-admin console</code> printed when it started. It works once; for another session, stop the console and start it again (every session ends with it).</p>`,
  );
}
