import { type Html, html, siteHeader } from '@quotes/text-rules';

/**
 * The frame of every page of /account: the site's stylesheet and the page's own, a header that
 * says who is signed in and offers to sign out (a form: a POST with its CSRF token), no script.
 */

export interface Signed {
  readonly csrfToken: string;
}

export const accountStyles = `
.keys { display: grid; gap: 1rem; }
.key { border: 1px solid rgba(0,0,0,0.1); border-radius: 6px; padding: 0.5rem 1rem; }
.key h2 { font-size: 1.125rem; margin: 0.25rem 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.125rem 1rem; margin: 0.5rem 0; }
dt { color: #757575; }
dd { margin: 0; overflow-wrap: anywhere; }
time { white-space: nowrap; }
h1, h2, figcaption { text-wrap: balance; }
@media (max-width: 30rem) {
  dl { grid-template-columns: 1fr; gap: 0; }
  dd + dt { margin-top: 0.375rem; }
}
.notice { border: 1px solid #0099ff; border-radius: 6px; padding: 0.5rem 1rem; }
.secret { font-family: ui-monospace, monospace; font-size: 1rem; padding: 0.5rem; background: #f6f6f6; overflow-wrap: anywhere; }
.chart { margin: 1rem 0; }
.chart-svg { width: 100%; height: auto; max-width: 30rem; }
.legend .served { color: #0077cc; }
.legend .refused { color: #c0392b; }
form.inline { display: inline; }
fieldset { border: 1px solid rgba(0,0,0,0.1); border-radius: 6px; margin-top: 1rem; }
.danger { background: #c0392b; }
.link-button { background: none; color: #0099ff; padding: 0; margin: 0; font-weight: 400; text-decoration: underline; }
`;

/** A page of /account; `head` adds to its head (the proof-of-work widget's script). */
export function accountPage(title: string, signed: Signed | null, body: Html, head: Html = html``): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}: Quote Retrieval Service</title>
<link rel="stylesheet" href="/keys/page.css">
<link rel="stylesheet" href="/account/page.css">
${head}</head>
<body>
${siteHeader(
  signed
    ? html`<form class="inline" method="post" action="/account/sign-out"><input type="hidden" name="_csrf" value="${signed.csrfToken}"><button class="link-button" type="submit">Sign out</button></form>`
    : html``,
)}
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.text;
}

export const csrfField = (token: string) => html`<input type="hidden" name="_csrf" value="${token}">`;

export function notice(kind: 'error' | 'info', text: string): Html {
  return kind === 'error' ? html`<p class="errors" role="alert">${text}</p>` : html`<p class="notice">${text}</p>`;
}
