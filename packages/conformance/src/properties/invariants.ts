import { lengthOfText, taxonomy } from '@quotes/contract';
import type { ResolvedFilters } from './oracle.js';

/**
 * The semantic promises of the contract that a schema cannot express. Each function returns the
 * violations it found (empty: the response keeps them). Pure, so they are unit-tested.
 */

type Body = Record<string, unknown>;

function listed(values: ReadonlySet<string>): string {
  return [...values].join(', ');
}

export function checkQuote(quote: Body, filters: ResolvedFilters, where: string): string[] {
  const problems: string[] = [];
  const text = String(quote.text);
  const expectedLength = lengthOfText(text);
  if (quote.length !== expectedLength) {
    problems.push(
      `${where}: length is ${String(quote.length)} but the text has ${[...text].length} characters (${expectedLength})`,
    );
  }
  const moods = String(quote.mood).split(',');
  const unknown = moods.filter((mood) => !taxonomy.moods.includes(mood));
  if (unknown.length > 0)
    problems.push(`${where}: mood ${JSON.stringify(quote.mood)} has unknown moods ${unknown.join(', ')}`);
  if (new Set(moods).size !== moods.length)
    problems.push(`${where}: mood ${JSON.stringify(quote.mood)} repeats a mood`);
  const { category, mood, length, era, faith } = filters;
  if (category && !category.has(String(quote.category))) {
    problems.push(`${where}: category ${String(quote.category)} is not one the filter matches (${listed(category)})`);
  }
  if (mood && !moods.some((tag) => mood.has(tag))) {
    problems.push(`${where}: mood ${String(quote.mood)} has none of the filtered moods (${listed(mood)})`);
  }
  if (length && !length.has(String(quote.length)))
    problems.push(`${where}: length ${String(quote.length)}, filter asked ${listed(length)}`);
  if (era && !era.has(String(quote.era)))
    problems.push(`${where}: era ${String(quote.era)}, filter asked ${listed(era)}`);
  // Only the full Quote carries faith_tradition; list items (QuoteSummary) do not.
  if (faith && 'faith_tradition' in quote && !faith.has(String(quote.faith_tradition))) {
    problems.push(`${where}: faith_tradition ${String(quote.faith_tradition)}, filter asked ${listed(faith)}`);
  }
  if ('secondary_category' in quote && quote.secondary_category !== null) {
    if (!taxonomy.categories.includes(String(quote.secondary_category)))
      problems.push(`${where}: secondary_category ${String(quote.secondary_category)} is not a category`);
    if (quote.secondary_category === quote.category) problems.push(`${where}: secondary_category equals category`);
  }
  if (
    'faith_tradition' in quote &&
    quote.faith_tradition !== null &&
    !taxonomy.faithTraditions.includes(String(quote.faith_tradition))
  ) {
    problems.push(`${where}: faith_tradition ${String(quote.faith_tradition)} is not a faith tradition`);
  }
  return problems;
}

export function checkPage(body: Body, page: { limit: number; offset: number }, filters: ResolvedFilters): string[] {
  const problems: string[] = [];
  const quotes = (body.quotes ?? []) as Body[];
  const total = Number(body.total);
  if (body.limit !== page.limit)
    problems.push(
      `limit is ${String(body.limit)}, expected ${page.limit} (the request's, clamped to the plan's largest page)`,
    );
  if (body.offset !== page.offset) problems.push(`offset is ${String(body.offset)}, expected ${page.offset}`);
  const expectedCount = Math.max(0, Math.min(page.limit, total - page.offset));
  if (quotes.length !== expectedCount)
    problems.push(
      `${quotes.length} quotes on the page; total ${total}, offset ${page.offset}, limit ${page.limit} make ${expectedCount}`,
    );
  const hasMore = page.offset + quotes.length < total;
  if (body.has_more !== hasMore)
    problems.push(`has_more is ${String(body.has_more)}; offset + quotes.length < total is ${hasMore}`);
  const ids = quotes.map((quote) => quote.id);
  if (new Set(ids).size !== ids.length) problems.push('a quote appears twice on one page');
  quotes.forEach((quote, index) => {
    problems.push(...checkQuote(quote, filters, `quotes[${index}]`));
  });
  return problems;
}

/** The period an allowance covers, and the policy name its RateLimit fields carry. */
export interface AllowanceWindow {
  readonly start: Date;
  readonly next: Date;
  readonly policy: 'monthly' | 'validity';
}

/** The calendar month (UTC) around `now`, as a monthly allowance sees it. */
export function allowanceMonth(now: Date): AllowanceWindow {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, next, policy: 'monthly' };
}

/**
 * A trial key's window, read from its quotes-usage (the suite does not know when the key was
 * issued): from `period_start` to `resets_at`, which must be the plan's validity days apart.
 * A string says what is wrong.
 */
export function validityWindowOf(
  body: Body,
  key: { plan: string; validityDays: number | null },
): AllowanceWindow | string {
  const start = Date.parse(String(body.period_start));
  const next = Date.parse(String(body.resets_at));
  const days = (next - start) / 86_400_000;
  if (!Number.isFinite(days) || days !== key.validityDays)
    return `the ${key.plan} key's period runs ${String(body.period_start)} to ${String(body.resets_at)}, not its ${String(key.validityDays)} days`;
  return { start: new Date(start), next: new Date(next), policy: 'validity' };
}

const clockSlackSeconds = 5;

function near(actual: number, expected: number): boolean {
  return Math.abs(actual - expected) <= clockSlackSeconds;
}

/**
 * The allowance headers of a counted response (or a 429): the draft-11 fields and the
 * X-RateLimit trio for a limited key, only X-RateLimit-Reset for an unlimited one.
 */
export function checkAllowanceHeaders(
  headers: Readonly<Record<string, string>>,
  limit: number | null,
  usedAfter: number,
  now: Date,
  status: number,
  window: AllowanceWindow = allowanceMonth(now),
): string[] {
  const problems: string[] = [];
  const { start, next, policy: policyName } = window;
  const reset = Math.floor(next.getTime() / 1000);
  const untilReset = (next.getTime() - now.getTime()) / 1000;
  const resetHeader = headers['x-ratelimit-reset'];
  if (resetHeader === undefined) problems.push('X-RateLimit-Reset is missing');
  else if (Number(resetHeader) !== reset)
    problems.push(`X-RateLimit-Reset is ${resetHeader}, the allowance's period ends at ${reset}`);
  const limitFields = ['ratelimit-policy', 'ratelimit', 'x-ratelimit-limit', 'x-ratelimit-remaining'];
  if (limit === null) {
    const invented = limitFields.filter((name) => headers[name] !== undefined);
    if (invented.length > 0)
      problems.push(
        `an unlimited key got ${invented.join(', ')} (the contract omits them rather than invent a number)`,
      );
  } else {
    const remaining = Math.max(0, limit - usedAfter);
    if (headers['x-ratelimit-limit'] !== String(limit))
      problems.push(`X-RateLimit-Limit is ${headers['x-ratelimit-limit']}, the key's allowance is ${limit}`);
    if (headers['x-ratelimit-remaining'] !== String(remaining)) {
      problems.push(
        `X-RateLimit-Remaining is ${headers['x-ratelimit-remaining']}, expected ${remaining} (${usedAfter} of ${limit} used)`,
      );
    }
    const policy = new RegExp(`^"${policyName}";q=(\\d+);w=(\\d+)$`).exec(headers['ratelimit-policy'] ?? '');
    const monthSeconds = (next.getTime() - start.getTime()) / 1000;
    if (!policy) problems.push(`RateLimit-Policy is ${headers['ratelimit-policy']}`);
    else if (Number(policy[1]) !== limit || Number(policy[2]) !== monthSeconds) {
      problems.push(`RateLimit-Policy is ${headers['ratelimit-policy']}, expected q=${limit};w=${monthSeconds}`);
    }
    const left = new RegExp(`^"${policyName}";r=(\\d+);t=(\\d+)$`).exec(headers.ratelimit ?? '');
    if (!left) problems.push(`RateLimit is ${headers.ratelimit}`);
    else if (Number(left[1]) !== remaining || !near(Number(left[2]), untilReset)) {
      problems.push(`RateLimit is ${headers.ratelimit}, expected r=${remaining};t≈${Math.round(untilReset)}`);
    }
  }
  if (status === 429) {
    const retryAfter = headers['retry-after'];
    if (retryAfter === undefined || !near(Number(retryAfter), untilReset))
      problems.push(`Retry-After is ${retryAfter}, expected ≈${Math.round(untilReset)} s (until the reset)`);
  }
  return problems;
}

export function checkUsage(
  body: Body,
  expected: { plan: string; limit: number | null; used: number },
  window: AllowanceWindow,
  now: Date,
): string[] {
  const problems: string[] = [];
  const { limit, used } = expected;
  if (body.tier !== expected.plan) problems.push(`tier is ${String(body.tier)}, the key's plan is ${expected.plan}`);
  if (body.calls_in_period !== used)
    problems.push(`calls_in_period is ${String(body.calls_in_period)}, the suite counted ${used}`);
  // A period begun this month holds only this month's calls; one begun earlier (a trial across the 1st) at least them.
  const withinMonth = window.start.getTime() >= allowanceMonth(now).start.getTime();
  if (
    withinMonth
      ? body.calls_this_month !== used
      : typeof body.calls_this_month !== 'number' || body.calls_this_month > used
  )
    problems.push(`calls_this_month is ${String(body.calls_this_month)}, the suite counted ${used} in the period`);
  if (body.call_limit !== limit) problems.push(`call_limit is ${String(body.call_limit)}, expected ${limit}`);
  const remaining = limit === null ? null : Math.max(0, limit - used);
  if (body.calls_remaining !== remaining)
    problems.push(`calls_remaining is ${String(body.calls_remaining)}, expected ${remaining}`);
  const percent = limit === null ? 0 : limit === 0 ? 100 : Math.min(100, Math.floor((used * 100) / limit));
  if (body.usage_pct !== percent) problems.push(`usage_pct is ${String(body.usage_pct)}, expected ${percent}`);
  const { next } = window;
  if (Date.parse(String(body.period_start)) !== window.start.getTime())
    problems.push(`period_start is ${String(body.period_start)}, expected ${window.start.toISOString()}`);
  if (Date.parse(String(body.resets_at)) !== next.getTime())
    problems.push(`resets_at is ${String(body.resets_at)}, expected ${next.toISOString()}`);
  return problems;
}

export function checkFilterValues(body: Body): string[] {
  const problems: string[] = [];
  const categories = (body.categories ?? []) as Body[];
  const names = categories.map((category) => String(category.name));
  const sorted = [...names].sort();
  if (names.join('|') !== sorted.join('|')) problems.push('categories are not sorted by name');
  if (
    new Set(names).size !== taxonomy.categories.length ||
    !taxonomy.categories.every((name) => names.includes(name))
  ) {
    problems.push(`categories are not exactly the ${taxonomy.categories.length} of the taxonomy`);
  }
  if (body.total_categories !== categories.length)
    problems.push(`total_categories is ${String(body.total_categories)}, the list has ${categories.length}`);
  const same = (field: string, values: readonly string[]) => {
    if (JSON.stringify(body[field]) !== JSON.stringify(values))
      problems.push(`${field} is ${JSON.stringify(body[field])}, the contract lists ${JSON.stringify(values)}`);
  };
  // Eras in the contract's (chronological) order; the others as the enums list them.
  same('eras', taxonomy.eras);
  const asSet = (field: string, values: readonly string[]) => {
    const list = (body[field] ?? []) as string[];
    if (list.length !== values.length || !values.every((value) => list.includes(value)))
      problems.push(`${field} is ${JSON.stringify(list)}, the contract has ${JSON.stringify(values)}`);
  };
  asSet('moods', taxonomy.moods);
  asSet('lengths', taxonomy.lengths);
  asSet('faith_traditions', taxonomy.faithTraditions);
  return problems;
}
