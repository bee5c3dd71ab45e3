import { corpusStats } from '../../data/consoleQueries.js';
import { isoSeconds } from '@quotes/accounts/rules';
import type { ConsoleContext } from '../consoleContext.js';
import type { ConsoleSession } from '../consoleSessions.js';
import { html } from '../consoleHtml.js';
import { consolePage, count, dataTable } from './layout.js';

export async function corpusPage(context: ConsoleContext, session: ConsoleSession): Promise<string> {
  const stats = await corpusStats(context.db);
  const loaded = stats.loaded;
  const body = html`<dl class="facts">
<dt>quotes</dt><dd>${count(stats.quotes)}</dd>
<dt>authors</dt><dd>${count(stats.authors)}</dd>
<dt>loaded</dt><dd>${loaded ? `${isoSeconds(loaded.loadedAt)}: version ${loaded.version}, ${loaded.source}${loaded.seed === null ? '' : `, seed ${loaded.seed}`}` : 'nothing loaded'}</dd>
<dt>last import in the audit</dt><dd>${stats.lastLoad ? `${isoSeconds(stats.lastLoad.at)}: ${stats.lastLoad.action} by ${stats.lastLoad.actor}` : 'none recorded'}</dd>
</dl>
<p>Imports and generations run from the command line (<code>quotes-admin corpus import|generate</code>): they replace every quote, so they are not a button here.</p>
<section class="columns">
<div><h2>Eras</h2>${dataTable(
    ['era', 'quotes'],
    stats.eras.map((row) => [row.era, count(row.quotes)]),
  )}</div>
<div><h2>Lengths</h2>${dataTable(
    ['length', 'quotes'],
    stats.lengths.map((row) => [row.length, count(row.quotes)]),
  )}</div>
</section>
<section><h2>Categories</h2>${dataTable(
    ['category', 'quotes'],
    stats.categories.map((row) => [row.category, count(row.quotes)]),
  )}</section>`;
  return consolePage('Corpus', session, body);
}
