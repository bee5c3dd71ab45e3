import { createHash } from 'node:crypto';
import {
  type FilterValues,
  type Plan,
  type Quote,
  type QuotePage,
  type QuoteSummary,
  taxonomy,
  type Usage,
} from '@quotes/contract';
import { type AllowancePeriod, isoSeconds, type PlanRules, resetSentence } from '@quotes/accounts/rules';
import { remainingCalls } from '@quotes/accounts/rules';

/**
 * Every response body, shaped in one place and typed by the contract's generated types: a field
 * renamed in the contract fails typecheck here. Bodies travel as JSON, branded with the type they
 * hold: text for the bodies built per call, UTF-8 bytes for the ones kept (the filter values, the
 * database's quote JSON), which are then written to the socket without being encoded again.
 */
declare const holds: unique symbol;
export type JsonText<T> = (string | Buffer) & { readonly [holds]: T };

function jsonText<T>(body: T): JsonText<T> {
  return JSON.stringify(body) as JsonText<T>;
}

/**
 * Text as UTF-8 bytes in a buffer of its own: Buffer.from would cut small ones from a shared
 * 8 KB slab, which one kept slice holds alive whole.
 */
export function ownUtf8(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

const pageStart = Buffer.from('{"quotes":[');
const commaByte = ','.charCodeAt(0);

/**
 * The keys of the Quote and QuoteSummary JSON that the database writes for each quote
 * (migration 20261123T1100_quote_json), in order. Typed by the contract (a key missing, extra or
 * renamed fails typecheck), and test/data/quoteJson.test.ts proves the database writes exactly
 * these: the SQL is the one copy that cannot be typed.
 */
export const quoteJsonKeys = Object.keys({
  id: 0,
  text: 0,
  author: 0,
  category: 0,
  secondary_category: 0,
  mood: 0,
  era: 0,
  length: 0,
  faith_tradition: 0,
} satisfies Record<keyof Quote, 0>);
export const quoteSummaryJsonKeys = Object.keys({
  id: 0,
  text: 0,
  author: 0,
  category: 0,
  mood: 0,
  era: 0,
  length: 0,
} satisfies Record<keyof QuoteSummary, 0>);

/** A Quote as the database stored it (see quoteJsonKeys), as UTF-8. */
export function storedQuote(json: Buffer): JsonText<Quote> {
  return json as JsonText<Quote>;
}

/**
 * A page: the items as the database stored them (QuoteSummary JSON, UTF-8), then the page's
 * numbers, written into one Buffer of its exact length.
 */
export function quotePageBody(items: readonly Buffer[], page: Omit<QuotePage, 'quotes'>): JsonText<QuotePage> {
  const tail = `],${JSON.stringify(page).slice(1)}`;
  let length = pageStart.length + Math.max(items.length - 1, 0) + Buffer.byteLength(tail);
  for (let index = 0; index < items.length; index++) length += items[index]!.length;
  const body = Buffer.allocUnsafe(length);
  let offset = pageStart.copy(body, 0);
  for (let index = 0; index < items.length; index++) {
    if (index > 0) body[offset++] = commaByte;
    offset += items[index]!.copy(body, offset);
  }
  body.write(tail, offset, 'utf8');
  return body as JsonText<QuotePage>;
}

/** The filter values: every category with its count, sorted by name, and the other filters' values. */
export function filterValuesBody(counts: Readonly<Record<string, number>>): JsonText<FilterValues> {
  const body: FilterValues = {
    categories: [...taxonomy.categories]
      .sort()
      .map((name) => ({ name: name as FilterValues['categories'][number]['name'], count: counts[name] ?? 0 })),
    total_categories: taxonomy.categories.length,
    moods: taxonomy.moods as FilterValues['moods'],
    lengths: taxonomy.lengths as FilterValues['lengths'],
    eras: taxonomy.eras as FilterValues['eras'],
    faith_traditions: taxonomy.faithTraditions as FilterValues['faith_traditions'],
  };
  return ownUtf8(JSON.stringify(body)) as JsonText<FilterValues>;
}

/** The FilterValues body's ETag: a hash of the body, so every server over one corpus agrees. */
export function filterValuesEtag(body: Buffer | string): string {
  return `"fv-${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/** The calling key's usage over its allowance period (the month, or a trial's validity). */
export function usageSummary(input: {
  client: string;
  plan: PlanRules;
  /** Calls this calendar month. */
  callsThisMonth: number;
  /** Calls in the period: this month's plus its earlier months' (a trial across the 1st). */
  callsInPeriod: number;
  limit: number | null;
  period: AllowancePeriod;
}): Usage {
  const { limit, callsInPeriod: calls } = input;
  // Rounded down, so 100 means the allowance is really used up; a zero allowance is used up from the start.
  const percent = limit === null ? 0 : limit === 0 ? 100 : Math.min(100, Math.floor((calls * 100) / limit));
  return {
    client: input.client,
    tier: input.plan.id as Plan,
    calls_this_month: input.callsThisMonth,
    calls_in_period: calls,
    call_limit: limit,
    calls_remaining: remainingCalls(limit, calls),
    usage_pct: percent,
    resets: resetSentence(input.plan),
    period_start: isoSeconds(input.period.start),
    resets_at: isoSeconds(input.period.end),
  };
}

export function usageBody(usage: Usage): JsonText<Usage> {
  return jsonText(usage);
}
