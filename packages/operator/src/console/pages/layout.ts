import type { ConsoleSession } from '../consoleSessions.js';
import { Html, html } from '../consoleHtml.js';

/** The frame of every console page: navigation, the session's name, sign-out, the page's scripts. */
export function consolePage(
  title: string,
  session: ConsoleSession | null,
  body: Html,
  options: { charts?: boolean } = {},
): string {
  const nav = session
    ? html`<nav aria-label="Console">
<a href="/">Overview</a><a href="/keys">Keys</a><a href="/audit">Audit</a><a href="/corpus">Corpus</a>
<span class="session">session console:${session.label}</span>
<form method="post" action="/sign-out" class="inline">${csrfField(session)}<button type="submit" class="link">Sign out</button></form>
</nav>`
    : html``;
  const scripts = options.charts
    ? html`<link rel="stylesheet" href="/assets/uplot.css">
<script src="/assets/uplot.js" defer></script>
<script src="/assets/console-charts.js" defer></script>`
    : html``;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}: Quotes console</title>
<link rel="stylesheet" href="/assets/console.css">
${scripts}
</head>
<body>
<header><strong>Quotes console</strong>${nav}</header>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.text;
}

/** The hidden field every form that changes something carries. */
export function csrfField(session: ConsoleSession): Html {
  return html`<input type="hidden" name="_csrf" value="${session.csrfToken}">`;
}

/** A table; each cell is escaped text unless built as Html. */
export function dataTable(
  headers: readonly string[],
  rows: readonly (readonly (Html | string | number | null)[])[],
  empty = 'None.',
): Html {
  if (rows.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`<table>
<thead><tr>${headers.map((header) => html`<th scope="col">${header}</th>`)}</tr></thead>
<tbody>${rows.map((row) => html`<tr>${row.map((cell) => html`<td>${cell ?? '-'}</td>`)}</tr>`)}</tbody>
</table>`;
}

export const count = (value: number | null) => (value === null ? 'unlimited' : value.toLocaleString('en-US'));

/** Links to the previous and next page of a list of `total` items, keeping the other query values. */
export function pager(path: string, query: Record<string, string | undefined>, page: number, pages: number): Html {
  if (pages <= 1) return html``;
  const link = (to: number) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
    params.set('page', String(to));
    return `${path}?${params}`;
  };
  return html`<nav class="pager" aria-label="Pages">
${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">Previous</a>` : ''}
<span>Page ${page} of ${pages}</span>
${page < pages ? html`<a href="${link(page + 1)}" rel="next">Next</a>` : ''}
</nav>`;
}

/** A link to one key's page. */
export const keyLink = (id: string) => html`<a href="/keys/${encodeURIComponent(id)}">${id}</a>`;

/** A link to one key request's page. */
export const requestLink = (id: string) => html`<a href="/requests/${encodeURIComponent(id)}">${id}</a>`;

/** Links to each key and request a finding involves. */
export const involvedLinks = (involves: { keys: readonly string[]; requests: readonly string[] }) =>
  html`${[...involves.keys.map(keyLink), ...involves.requests.map(requestLink)].map((link, index) => (index === 0 ? link : html` ${link}`))}`;

/** A message above a page's content: an error or what was just done. */
export function notice(kind: 'error' | 'done', text: string | undefined): Html {
  if (!text) return html``;
  return html`<p class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</p>`;
}

export { Html };
