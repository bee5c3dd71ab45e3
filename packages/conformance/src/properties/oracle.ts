import { type FilterRule, problemTypePrefix, rules } from '@quotes/contract';
import { countedStatuses, type OperationSpec } from '../contract/operations.js';
import type { GeneratedRequest } from './requestModel.js';

/** What the suite knows about a key: its plan's rules as they apply to it, and its count this month. */
export interface KeyState {
  readonly plan: string;
  /** null: no monthly limit. */
  readonly monthlyCalls: number | null;
  readonly maxLimit: number;
  readonly filtersPerCall: number;
  readonly faithFilter: boolean;
  /** Calls counted this month before the request. */
  readonly used: number;
}

/**
 * The filters of a valid request, each resolved by its `x-filter` to the taxonomy values it
 * matches (one value for an exact match), by parameter name: `{ category: {'Grief & Loss'} }`.
 */
export type ResolvedFilters = Readonly<Partial<Record<string, ReadonlySet<string>>>>;

export interface Expectation {
  /** The statuses the contract allows for this request in this state. */
  readonly statuses: readonly number[];
  /** The problem type for an error answer (by status). */
  readonly problemTypes: Readonly<Record<number, string>>;
  /** For 400: every parameter `errors` must name. */
  readonly badParameters: readonly string[];
  /** The statuses at which this call counts against the allowance. */
  readonly countedAt: readonly number[];
  readonly filters: ResolvedFilters;
  /** For the list: the page the response must report. */
  readonly page?: { readonly limit: number; readonly offset: number };
  /** Why this outcome, for failure reports. */
  readonly reason: string;
  /**
   * Step 5 of the order of checks (the key's calls per second and calls at once) depends on
   * timing the suite does not control: a call of a counted operation that passed steps 1-4 may
   * be answered 429 `rate-limited` (not counted, with a short `Retry-After`) instead.
   */
  readonly mayBeRateLimited?: boolean;
}

/** The problem type of step 5's 429. */
export const rateLimitedType = `${problemTypePrefix}rate-limited`;

const problem = (kind: string) => `${problemTypePrefix}${kind}`;
const wholeNumber = /^(0|[1-9]\d*)$/;

/** The values a filter's text matches, as its `x-filter` says: a case-insensitive substring of any, or equal to one ignoring case. */
export function filterMatches(rule: FilterRule, text: string): Set<string> {
  const needle = text.toLowerCase();
  return new Set(
    rule.values.filter((value) =>
      rule.match === 'substring' ? value.toLowerCase().includes(needle) : value.toLowerCase() === needle,
    ),
  );
}

function integerIn(text: string, min: number, max: number): number | undefined {
  if (!wholeNumber.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

/** The integer bounds of `limit` / `offset`, from the contract's schema. */
function bounds(operation: OperationSpec, name: string): { min: number; max: number; default: number } {
  const schema = operation.parameters.find((parameter) => parameter.name === name)?.schema ?? {};
  return {
    min: Number(schema.minimum ?? 0),
    max: Number(schema.maximum ?? Number.MAX_SAFE_INTEGER),
    default: Number(schema.default ?? 0),
  };
}

/**
 * The contract's answer to a generated request, following its "Order of checks": key, key state,
 * request validity, plan rules, allowance, then the operation.
 */
export function expectOutcome(
  request: GeneratedRequest,
  operation: OperationSpec,
  key: KeyState | undefined,
  filterRules: readonly FilterRule[] = rules.filters,
): Expectation {
  const counted = countedStatuses(operation);
  const base = { badParameters: [] as string[], countedAt: [] as number[], filters: {} as ResolvedFilters };
  const fail = (status: number, kind: string, reason: string, extra: Partial<Expectation> = {}): Expectation => ({
    ...base,
    statuses: [status],
    problemTypes: { [status]: problem(kind) },
    reason,
    ...extra,
  });

  switch (request.credential.kind) {
    case 'missing':
      return fail(401, 'missing-api-key', 'no key');
    case 'unknown':
      return fail(401, 'invalid-api-key', 'unknown key');
    case 'conflicting':
      return fail(401, 'conflicting-api-keys', 'two different keys');
    case 'revoked':
      return fail(403, 'revoked-api-key', 'revoked key');
    case 'expired':
      return fail(403, 'expired-api-key', 'expired key');
    default:
      break;
  }
  if (!key) throw new Error(`no key state for a ${request.credential.kind} credential`);

  const declared = new Map(
    operation.parameters
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => [parameter.name, parameter]),
  );
  const occurrences = new Map<string, number>();
  for (const parameter of request.parameters)
    occurrences.set(parameter.name, (occurrences.get(parameter.name) ?? 0) + 1);

  const bad = new Set<string>();
  const filterRule = new Map(filterRules.map((rule) => [rule.name, rule]));
  const filters: Record<string, ReadonlySet<string>> = {};
  let limit: number | undefined;
  let offset: number | undefined;
  for (const parameter of request.parameters) {
    const { name, value } = parameter;
    if (
      !declared.has(name) ||
      (occurrences.get(name) ?? 0) > 1 ||
      value === null ||
      value === '' ||
      parameter.malformed
    ) {
      bad.add(name);
      continue;
    }
    const rule = filterRule.get(name);
    if (rule) {
      const matches = filterMatches(rule, value);
      if (matches.size === 0) bad.add(name);
      else filters[name] = matches;
      continue;
    }
    if (name === 'limit' || name === 'offset') {
      const { min, max } = bounds(operation, name);
      const parsed = integerIn(value, min, max);
      if (parsed === undefined) bad.add(name);
      else if (name === 'limit') limit = parsed;
      else offset = parsed;
    }
    // Any other declared parameter (one the contract adds later): the suite judges only its presence.
  }
  if (bad.size > 0) {
    return fail(400, 'invalid-request', `invalid: ${[...bad].join(', ')}`, { badParameters: [...bad] });
  }

  // "limit and offset are not filters": every other parameter given is one.
  const given = request.parameters
    .map((parameter) => parameter.name)
    .filter((name) => name !== 'limit' && name !== 'offset');
  if (given.includes('faith') && !key.faithFilter) return fail(403, 'plan-limit', `faith on ${key.plan}`);
  if (given.length > key.filtersPerCall)
    return fail(403, 'plan-limit', `${given.length} filters on ${key.plan} (${key.filtersPerCall} allowed)`);

  if (counted.length > 0 && key.monthlyCalls !== null && key.used >= key.monthlyCalls) {
    return fail(429, 'allowance-exhausted', `${key.used} of ${key.monthlyCalls} calls used`, {
      mayBeRateLimited: true,
    });
  }

  // 404 on an operation that declares it is the no-match answer (random quote).
  const statuses = [...operation.responses.keys()].filter((status) => status < 300 || status === 404);
  const page = declared.has('limit')
    ? {
        limit: Math.min(limit ?? bounds(operation, 'limit').default, key.maxLimit),
        offset: offset ?? bounds(operation, 'offset').default,
      }
    : undefined;
  return {
    statuses,
    problemTypes: { 404: problem('no-match') },
    badParameters: [],
    countedAt: counted,
    filters,
    page,
    reason: 'valid request within the plan',
    mayBeRateLimited: counted.length > 0,
  };
}
