import { taxonomy } from '@quotes/contract';
import { type KeySearch, searchKeys } from '../../data/consoleQueries.js';
import { isoSeconds } from '@quotes/accounts/rules';
import { keyStanding } from '@quotes/accounts/rules';
import type { ConsoleContext } from '../consoleContext.js';
import type { ConsoleSession } from '../consoleSessions.js';
import { html } from '@quotes/text-rules';
import { consolePage, count, dataTable, keyLink, notice, pager } from './layout.js';

export const keysPerPage = 50;
const states = ['active', 'expired', 'revoked'] as const;
const textFields = ['email', 'client', 'prefix'] as const;

/** The search as asked in the query string, or what is wrong with it (each field named). */
export function keySearchOf(query: Record<string, unknown>): { search: KeySearch; page: number; errors: string[] } {
  const errors: string[] = [];
  const text = (name: string) => {
    const value = query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' || value.length > 254) {
      errors.push(`${name}: at most 254 characters, given once`);
      return undefined;
    }
    return value.trim() || undefined;
  };
  const search: KeySearch = {};
  for (const field of textFields) search[field] = text(field);
  const plan = text('plan');
  if (plan !== undefined && !taxonomy.plans.includes(plan)) errors.push(`plan: one of ${taxonomy.plans.join(', ')}`);
  else search.plan = plan;
  const state = text('state');
  if (state !== undefined && !(states as readonly string[]).includes(state))
    errors.push(`state: one of ${states.join(', ')}`);
  else search.state = state as KeySearch['state'];
  const pageText = text('page') ?? '1';
  const page = /^\d{1,6}$/.test(pageText) ? Number(pageText) : 0;
  if (page < 1) errors.push('page: a whole number from 1');
  return { search, page: Math.max(page, 1), errors };
}

function searchForm(search: KeySearch): ReturnType<typeof html> {
  const select = (name: string, values: readonly string[], chosen: string | undefined) =>
    html`<select id="${name}" name="${name}"><option value="">any</option>${values.map(
      (value) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${value}</option>`,
    )}</select>`;
  return html`<form method="get" action="/keys" class="search">
<label for="email">E-mail contains<input type="text" id="email" name="email" maxlength="254" value="${search.email ?? ''}"></label>
<label for="client">Client contains<input type="text" id="client" name="client" maxlength="254" value="${search.client ?? ''}"></label>
<label for="prefix">Prefix or id starts with<input type="text" id="prefix" name="prefix" maxlength="254" value="${search.prefix ?? ''}"></label>
<label for="plan">Plan${select('plan', taxonomy.plans, search.plan)}</label>
<label for="state">State${select('state', states, search.state)}</label>
<button type="submit">Search</button>
</form>`;
}

export async function keysPage(
  context: ConsoleContext,
  session: ConsoleSession,
  query: Record<string, unknown>,
): Promise<{ status: number; page: string }> {
  const { search, page, errors } = keySearchOf(query);
  if (errors.length > 0)
    return {
      status: 400,
      page: consolePage('Keys', session, html`${notice('error', errors.join('; '))}${searchForm(search)}`),
    };
  const now = context.clock();
  const { keys, total } = await searchKeys(context.db, search, now, {
    limit: keysPerPage,
    offset: (page - 1) * keysPerPage,
  });
  const pages = Math.max(1, Math.ceil(total / keysPerPage));
  const body = html`${searchForm(search)}
<p>${count(total)} ${total === 1 ? 'key matches' : 'keys match'}.</p>
${dataTable(
  ['key', 'prefix', 'client', 'e-mail', 'plan', 'state', 'created', 'expires'],
  keys.map((key) => [
    keyLink(key.id),
    key.keyPrefix,
    key.client,
    key.email,
    key.plan.id,
    keyStanding(key, now),
    isoSeconds(key.createdAt).slice(0, 10),
    key.expiresAt && isoSeconds(key.expiresAt).slice(0, 10),
  ]),
  'No key matches.',
)}
${pager('/keys', { ...search }, page, pages)}`;
  return { status: 200, page: consolePage('Keys', session, body) };
}
