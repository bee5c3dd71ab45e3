import { taxonomy } from '@quotes/contract';
import { operationById } from '../contract/operations.js';
import { type DreddData, type Filters, queryString } from '../dredd/transactionPlan.js';
import type { ObservedClient } from '../http/observedClient.js';

type Body = Record<string, unknown>;

const maxProbes = 60;

/**
 * Finds, through the API itself (so it works on any deployment), a combination of every filter
 * that matches a quote, one that matches none, and the filter values' current ETag. Costs a few counted calls on `key`, which must
 * allow five filters and `faith`.
 */
export async function discoverData(client: ObservedClient, key: string | undefined): Promise<DreddData> {
  if (!key) return {};
  const listPath = operationById('listQuotes').path;
  /** The first answer that was not a page, which stops the search from meaning "nothing found". */
  let refused: string | undefined;
  const total = async (filters: Filters): Promise<{ total: number | undefined; first: Body | undefined }> => {
    const exchange = await client.get(`${listPath}${queryString({ ...filters, limit: '1' })}`, { 'X-API-Key': key });
    const body = (exchange.json ?? {}) as Body;
    const quotes = Array.isArray(body.quotes) ? (body.quotes as Body[]) : [];
    if (exchange.response.status !== 200)
      refused ??=
        `looking for it, ${exchange.request} answered ${exchange.response.status} ${String(body.type ?? '')}`.trim();
    return { total: exchange.response.status === 200 ? Number(body.total) : undefined, first: quotes[0] };
  };

  // Every filter where a quote with a faith tradition exists; without faith when none has one.
  let matching: Filters | undefined;
  for (const faith of [...taxonomy.faithTraditions, undefined]) {
    const { first } = await total(faith ? { faith } : {});
    if (!first) continue;
    const candidate: Record<string, string> = {
      category: String(first.category),
      mood: String(first.mood).split(',')[0] ?? '',
      length: String(first.length),
      era: String(first.era),
    };
    if (faith) candidate.faith = faith;
    if (((await total(candidate)).total ?? 0) > 0) {
      matching = candidate;
      break;
    }
  }

  // Walk combinations from the least likely corner (late categories, the oldest era, long texts).
  let impossible: Filters | undefined;
  let probes = 0;
  search: for (const category of [...taxonomy.categories].reverse()) {
    for (const faith of [...taxonomy.faithTraditions].reverse()) {
      for (const era of taxonomy.eras) {
        if (++probes > maxProbes) break search;
        const candidate = {
          category,
          mood: taxonomy.moods[probes % taxonomy.moods.length] ?? '',
          length: taxonomy.lengths.at(-1) ?? '',
          era,
          faith,
        };
        if ((await total(candidate)).total === 0) {
          impossible = candidate;
          break search;
        }
      }
    }
  }
  // The filter values' ETag, sent back to reach the 304 (one more counted call).
  const categories = await client.get(operationById('listFilterValues').path, { 'X-API-Key': key });
  const filterValuesEtag = categories.response.status === 200 ? categories.response.headers.etag : undefined;
  const why = {
    matching: refused ?? 'no quote on the target matches a value of every filter (looked with each faith tradition)',
    impossible: refused ?? `each of the ${maxProbes} least likely filter combinations tried matched a quote`,
    filterValuesEtag:
      categories.response.status === 200
        ? 'the filter values carried no ETag to send back'
        : `${categories.request} answered ${categories.response.status}`,
  };
  return { matching, impossible, filterValuesEtag, why };
}
