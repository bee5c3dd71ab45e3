import { taxonomy } from '@quotes/contract';
import { type KeySearch, searchKeys } from '../../data/consoleQueries.js';
import { isoSeconds, keyStanding } from '@quotes/accounts/rules';
import {
  keyStates,
  OperatorError,
  requireKeyState,
  requirePageNumber,
  requirePlanName,
  requireText,
} from '@quotes/accounts';
import type { ConsoleContext } from '../consoleContext.js';
import type { ConsoleSession } from '../consoleSessions.js';
import { html } from '../consoleHtml.js';
import { consolePage, count, dataTable, keyLink, notice, pager } from './layout.js';

export const keysPerPage = 50;

/**
 * The search as asked in the query string, or what is wrong with it: each value checked by the
 * operator's own input rule (operatorInput.ts), whose message names the field.
 */
export function keySearchOf(query: Record<string, unknown>): { search: KeySearch; page: number; errors: string[] } {
  const errors: string[] = [];
  const checked = <T>(name: string, rule: (text: string) => T): T | undefined => {
    const value = query[name];
    if (value === undefined || value === '') return undefined;
    try {
      if (typeof value !== 'string') throw new OperatorError(`${name} must be given once`);
      return rule(value);
    } catch (error) {
      if (!(error instanceof OperatorError)) throw error;
      errors.push(error.message);
      return undefined;
    }
  };
  const search: KeySearch = {
    email: checked('email', (text) => requireText(text, 'email', 254)),
    client: checked('client', (text) => requireText(text, 'client', 254)),
    prefix: checked('prefix', (text) => requireText(text, 'prefix', 254)),
    plan: checked('plan', (text) => requirePlanName(text)),
    state: checked('state', (text) => requireKeyState(text)),
  };
  const page = checked('page', (text) => requirePageNumber(text)) ?? 1;
  return { search, page, errors };
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
<label for="state">State${select('state', keyStates, search.state)}</label>
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
