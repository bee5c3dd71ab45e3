import { type Html, html } from './html.js';

/**
 * The header of every public page (the key pages, the terms, the holders' page): one copy of
 * the links, so a holder finds `/account` from wherever they land. `extra` goes at its end (the
 * holders' page puts its "Sign out" there).
 */
export function siteHeader(extra: Html = html``): Html {
  return html`<header><nav><strong>Quote Retrieval Service</strong><a href="/docs">API reference</a><a href="/keys/request">Ask for a key</a><a href="/account">Your keys</a><a href="/terms">Terms</a>${extra}</nav></header>`;
}
