import { auditPage as readAuditPage } from '../../data/consoleQueries.js';
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
