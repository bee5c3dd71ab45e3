import { type AuditCursor, auditPage as readAuditPage, keyAuditPage } from '../../data/consoleQueries.js';
import { type AuditEntry, auditSentence, holderNames, OperatorError, requirePageNumber } from '@quotes/accounts';
import { isoSeconds } from '@quotes/accounts/rules';
import type { ConsoleContext } from '../consoleContext.js';
import type { ConsoleSession } from '../consoleSessions.js';
import { type Html, html } from '../consoleHtml.js';
import { consolePage, count, dataTable, keyLink, notice, pager, requestLink } from './layout.js';

export const auditPerPage = 50;

/** An entry as stored (`at` a Date) or as the operator API shows it (`at` ISO text). */
type Entry = Omit<AuditEntry, 'at'> & { at: string | Date };

const requestId = /^r_[A-Za-z0-9]{1,64}$/;

/** An entry's target: a request links to its page (and the key it became to that key's), a key to its page. */
function targetCell(entry: Entry): Html | string {
  if (requestId.test(entry.target))
    return entry.keyId ? html`${requestLink(entry.target)} ${keyLink(entry.keyId)}` : requestLink(entry.target);
  return entry.keyId ? keyLink(entry.keyId) : entry.target;
}

/** Audit entries as a table, in the order given: when, and what was done in one sentence (auditSentence). */
export function auditTable(entries: readonly Entry[], holders: ReadonlyMap<string, string>, withTarget = true): Html {
  return dataTable(
    ['at', 'what was done', ...(withTarget ? ['links'] : [])],
    entries.map((entry) => [
      typeof entry.at === 'string' ? entry.at : isoSeconds(entry.at),
      auditSentence(entry, holders),
      ...(withTarget ? [targetCell(entry)] : []),
    ]),
    'No recorded action.',
  );
}

export async function auditPage(
  context: ConsoleContext,
  session: ConsoleSession,
  pageText: unknown,
): Promise<{ status: number; page: string }> {
  let page: number;
  try {
    page = requirePageNumber(typeof pageText === 'string' && pageText !== '' ? pageText : '1');
  } catch (error) {
    if (!(error instanceof OperatorError)) throw error;
    return { status: 400, page: consolePage('Audit', session, notice('error', error.message)) };
  }
  const { entries, total } = await readAuditPage(context.db, {
    limit: auditPerPage,
    offset: (page - 1) * auditPerPage,
  });
  const pages = Math.max(1, Math.ceil(total / auditPerPage));
  const body = html`<p>${count(total)} recorded ${total === 1 ? 'action' : 'actions'}, newest first. Append-only: the database refuses any change to them.</p>
${auditTable(entries, await holderNames(context.db, entries))}
${pager('/audit', {}, page, pages)}`;
  return { status: 200, page: consolePage('Audit', session, body) };
}

const entryId = /^[0-9]{1,18}$/;
const keyIdPattern = /^k_[A-Za-z0-9]{1,64}$/;

/** The cursor a key's audit page is asked for (`older` or `newer` than an entry's id), or the parameter that is wrong. */
function auditCursorOf(query: Record<string, unknown>): AuditCursor | { error: string } {
  const given = (['older', 'newer'] as const).filter((name) => query[name] !== undefined);
  if (given.length === 0) return {};
  if (given.length > 1) return { error: 'give older or newer, not both' };
  const name = given[0]!;
  const value = query[name];
  if (typeof value !== 'string' || !entryId.test(value))
    return { error: `${name} must be the number of an audit entry, got ${JSON.stringify(String(value)).slice(0, 60)}` };
  return name === 'older' ? { older: value } : { newer: value };
}

/**
 * A key's audit, newest first, one page of `auditPerPage` entries with links to the older and
 * newer ones: every entry of the key can be reached, however many a holder's changes added.
 */
export async function keyAuditSection(context: ConsoleContext, keyId: string, cursor: AuditCursor): Promise<Html> {
  const { entries, hasOlder, hasNewer } = await keyAuditPage(context.db, keyId, cursor, auditPerPage);
  const path = `/keys/${encodeURIComponent(keyId)}/audit`;
  const first = entries[0];
  const last = entries.at(-1);
  return html`${auditTable(entries, await holderNames(context.db, entries), false)}
${
  hasOlder || hasNewer
    ? html`<nav class="pager" aria-label="Audit pages">
${hasNewer && first ? html`<a href="${path}?newer=${first.id}" rel="prev">Newer entries</a>` : ''}
${hasOlder && last ? html`<a href="${path}?older=${last.id}" rel="next">Older entries</a>` : ''}
</nav>`
    : ''
}`;
}

/** The page of a key's audit: `older` or `newer` than an entry, or the newest. */
export async function keyAuditPageOf(
  context: ConsoleContext,
  session: ConsoleSession,
  keyId: string,
  query: Record<string, unknown>,
): Promise<{ status: number; page: string }> {
  const title = `Audit of ${keyId}`;
  if (!keyIdPattern.test(keyId))
    return { status: 404, page: consolePage('Not found', session, notice('error', 'No such key.')) };
  const cursor = auditCursorOf(query);
  if ('error' in cursor) return { status: 400, page: consolePage(title, session, notice('error', cursor.error)) };
  await context.operator(session).showKey(keyId);
  const body = html`<p>${keyLink(keyId)}: its recorded actions, newest first, ${auditPerPage} a page.</p>
${await keyAuditSection(context, keyId, cursor)}`;
  return { status: 200, page: consolePage(title, session, body) };
}
