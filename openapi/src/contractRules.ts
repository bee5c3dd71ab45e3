import { problemTypePrefix } from './taxonomy.js';
import { type ContractDocument, loadContract } from './contractDocument.js';

/**
 * The rules the contract states in prose, read from the `x-` extensions written next to that
 * prose in quotes.yaml. Nothing here parses prose: a missing or malformed extension stops the
 * process with the path of what is wrong.
 */

/** One plan, from `info.x-plans`. */
export interface PlanRules {
  readonly id: string;
  /** null: no monthly limit (or, with `perKeyLimits`, set on each key). */
  readonly monthlyCalls: number | null;
  readonly filtersPerCall: number;
  /** The largest page (`limit`); with `perKeyLimits` the default when a key sets none. */
  readonly maxLimit: number;
  readonly faithFilter: boolean;
  /** Days a key stays valid from issue; null: the plan sets no limit. */
  readonly validityDays: number | null;
  /** Allowance and largest page may be set on each key. */
  readonly perKeyLimits: boolean;
  /** Burst limit of one key, calls per second (token bucket); null: no burst limit. */
  readonly requestsPerSecond: number | null;
  /** A confirmed key request for this plan is granted at once when its checks pass (absent: the operator decides). */
  readonly selfService?: boolean;
  /** What `monthlyCalls` covers: each calendar month (UTC), or the key's whole validity window. */
  readonly allowancePeriod: 'month' | 'validity';
  /** null: on request. */
  readonly price: PlanPrice | null;
}

/** A plan's price, from `x-plans[].price`: a whole amount per calendar month or once per key (0: free). */
export interface PlanPrice {
  readonly amount: number;
  /** ISO 4217, e.g. USD. */
  readonly currency: string;
  readonly per: 'month' | 'key';
}

/** One filter parameter, from its `x-filter`. */
export interface FilterRule {
  readonly name: string;
  /** substring: case-insensitive part of a value (any matching value); exact: one value, ignoring case. */
  readonly match: 'substring' | 'exact';
  /** The values it is matched against: the enum of the schema `x-filter.values` names. */
  readonly values: readonly string[];
}

/** One `Length` value's band, from the schema's `x-characters`; both ends included. */
export interface LengthBand {
  readonly name: string;
  readonly minCharacters: number;
  /** null: no upper end. */
  readonly maxCharacters: number | null;
}

export interface ContractRules {
  readonly plans: readonly PlanRules[];
  readonly planById: ReadonlyMap<string, PlanRules>;
  /** The `limit` parameter's maximum: the most a per-key largest page may be. */
  readonly pageCeiling: number;
  /** Statuses at which a call of each operation counts against the allowance, by operationId. */
  readonly countedStatuses: ReadonlyMap<string, readonly number[]>;
  /** The filter parameters, in the order the contract declares them. */
  readonly filters: readonly FilterRule[];
  /** The `Length` bands, shortest first. */
  readonly lengths: readonly LengthBand[];
  /**
   * The status each problem kind (`revoked-api-key`, `allowance-exhausted`, ...) is answered with,
   * as the documented responses' examples state it: what a mail or page may say of a refusal.
   */
  readonly problemStatuses: ReadonlyMap<string, number>;
}

type Json = Record<string, unknown>;

class ContractRuleError extends Error {
  constructor(where: string, what: string) {
    super(`openapi/quotes.yaml: ${where} ${what}`);
  }
}

function wholeNumber(value: unknown, where: string, nullable: boolean): number | null {
  if (value === null && nullable) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new ContractRuleError(where, `must be a whole number >= 0${nullable ? ' or null' : ''}, got ${String(value)}`);
}

function flag(value: unknown, where: string): boolean {
  if (typeof value === 'boolean') return value;
  throw new ContractRuleError(where, `must be true or false, got ${String(value)}`);
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], where: string): T {
  if (allowed.includes(value as T)) return value as T;
  throw new ContractRuleError(where, `must be one of ${allowed.join(', ')}, got ${String(value)}`);
}

function priceOf(value: unknown, where: string): PlanPrice | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value))
    throw new ContractRuleError(where, 'must be {amount, currency, per} or null');
  const price = value as Json;
  if (typeof price.currency !== 'string' || !/^[A-Z]{3}$/.test(price.currency))
    throw new ContractRuleError(`${where}.currency`, `must be an ISO 4217 code, got ${String(price.currency)}`);
  return Object.freeze({
    amount: wholeNumber(price.amount, `${where}.amount`, false) as number,
    currency: price.currency,
    per: oneOf(price.per, ['month', 'key'] as const, `${where}.per`),
  });
}

function enumOf(document: ContractDocument, schema: unknown, where: string): readonly string[] {
  const values = typeof schema === 'string' ? document.components.schemas[schema]?.enum : undefined;
  if (!values || values.length === 0)
    throw new ContractRuleError(where, `names no schema with an enum: ${String(schema)}`);
  return values;
}

function readPlans(document: ContractDocument): PlanRules[] {
  const raw = (document.info as Json)['x-plans'];
  if (!Array.isArray(raw) || raw.length === 0) throw new ContractRuleError('info.x-plans', 'must list the plans');
  const plans = raw.map((entry: Json, index) => {
    const where = (field: string) => `info.x-plans[${index}].${field}`;
    const maxLimit = wholeNumber(entry.largest_page, where('largest_page'), false) as number;
    if (maxLimit < 1) throw new ContractRuleError(where('largest_page'), 'must be at least 1');
    const plan: PlanRules = Object.freeze({
      id: String(entry.id),
      monthlyCalls: wholeNumber(entry.monthly_calls, where('monthly_calls'), true),
      filtersPerCall: wholeNumber(entry.filters_per_call, where('filters_per_call'), false) as number,
      maxLimit,
      faithFilter: flag(entry.faith_filter, where('faith_filter')),
      validityDays: wholeNumber(entry.validity_days, where('validity_days'), true),
      perKeyLimits: flag(entry.per_key_limits, where('per_key_limits')),
      requestsPerSecond: wholeNumber(entry.requests_per_second, where('requests_per_second'), true),
      selfService: entry.self_service === undefined ? false : flag(entry.self_service, where('self_service')),
      allowancePeriod: oneOf(entry.allowance_period, ['month', 'validity'] as const, where('allowance_period')),
      price: priceOf(entry.price, where('price')),
    });
    if (plan.allowancePeriod === 'validity' && plan.validityDays === null)
      throw new ContractRuleError(where('allowance_period'), 'validity needs validity_days');
    return plan;
  });
  const ids = plans.map((plan) => plan.id);
  const declared = enumOf(document, 'Plan', 'components.schemas.Plan');
  if (ids.join() !== declared.join()) {
    throw new ContractRuleError(
      'info.x-plans',
      `must list the Plan enum in order (${declared.join(', ')}), got ${ids}`,
    );
  }
  return plans;
}

function readCountedStatuses(document: ContractDocument): Map<string, readonly number[]> {
  const counted = new Map<string, readonly number[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, Json>)) {
      const where = `paths.${path}.${method}.x-counted-statuses`;
      const statuses = operation['x-counted-statuses'];
      if (!Array.isArray(statuses))
        throw new ContractRuleError(where, 'must list the statuses that count ([] if none)');
      const documented = Object.keys((operation.responses ?? {}) as Json);
      for (const status of statuses) {
        if (!documented.includes(String(status)))
          throw new ContractRuleError(where, `names an undocumented status ${status}`);
      }
      counted.set(String(operation.operationId), Object.freeze(statuses.map(Number)));
    }
  }
  return counted;
}

function readFilters(document: ContractDocument): FilterRule[] {
  const filters: FilterRule[] = [];
  for (const [component, parameter] of Object.entries(document.components.parameters)) {
    const filter = (parameter as Json)['x-filter'] as Json | undefined;
    if (filter === undefined) continue;
    const where = `components.parameters.${component}.x-filter`;
    if (filter.match !== 'substring' && filter.match !== 'exact') {
      throw new ContractRuleError(`${where}.match`, `must be substring or exact, got ${String(filter.match)}`);
    }
    filters.push(
      Object.freeze({
        name: parameter.name,
        match: filter.match,
        values: Object.freeze([...enumOf(document, filter.values, `${where}.values`)]),
      }),
    );
  }
  return filters;
}

function readLengths(document: ContractDocument): LengthBand[] {
  const where = 'components.schemas.Length.x-characters';
  const raw = document.components.schemas.Length?.['x-characters'] as Record<string, Json> | undefined;
  const names = enumOf(document, 'Length', 'components.schemas.Length');
  if (!raw || Object.keys(raw).join() !== names.join()) {
    throw new ContractRuleError(where, `must give a band for each Length value, in order (${names.join(', ')})`);
  }
  let next = 1;
  const bands = names.map((name, index) => {
    const min = wholeNumber(raw[name]?.min, `${where}.${name}.min`, false) as number;
    const last = index === names.length - 1;
    const max = wholeNumber(raw[name]?.max, `${where}.${name}.max`, last);
    if (min !== next || (max !== null && max < min)) {
      throw new ContractRuleError(`${where}.${name}`, `must start at ${next} characters and not end before it starts`);
    }
    if (max !== null) next = max + 1;
    return Object.freeze({ name, minCharacters: min, maxCharacters: max });
  });
  if (bands.at(-1)?.maxCharacters !== null) throw new ContractRuleError(where, 'the last band must have no upper end');
  return bands;
}

/** Every problem example of the shared responses: its kind (the type without its prefix) and its status. */
function readProblemStatuses(document: ContractDocument): ReadonlyMap<string, number> {
  const statuses = new Map<string, number>();
  const responses = (document.components.responses ?? {}) as Record<string, { content?: Record<string, Json> }>;
  for (const [name, response] of Object.entries(responses)) {
    for (const media of Object.values(response.content ?? {})) {
      const named = Object.values((media.examples ?? {}) as Record<string, { value?: unknown }>).map(
        (example) => example.value,
      );
      for (const value of [media.example, ...named]) {
        const example = value as Json | undefined;
        if (typeof example?.type !== 'string' || !example.type.startsWith(problemTypePrefix)) continue;
        const kind = example.type.slice(problemTypePrefix.length);
        const status = wholeNumber(example.status, `components.responses.${name} example ${kind} status`, false)!;
        const known = statuses.get(kind);
        if (known !== undefined && known !== status)
          throw new ContractRuleError(
            `components.responses.${name}`,
            `gives ${kind} status ${status}, elsewhere ${known}`,
          );
        statuses.set(kind, status);
      }
    }
  }
  return statuses;
}

/** Reads every rule of a contract document (the checked-in one by default). */
export function readContractRules(document: ContractDocument = loadContract()): ContractRules {
  const plans = readPlans(document);
  const limit = Object.values(document.components.parameters).find(
    (parameter) => parameter.name === 'limit' && parameter.in === 'query',
  );
  return Object.freeze({
    plans: Object.freeze(plans),
    planById: new Map(plans.map((plan) => [plan.id, plan])),
    pageCeiling: wholeNumber(limit?.schema.maximum, 'the limit parameter maximum', false) as number,
    countedStatuses: readCountedStatuses(document),
    filters: Object.freeze(readFilters(document)),
    lengths: Object.freeze(readLengths(document)),
    problemStatuses: readProblemStatuses(document),
  });
}

/** The checked-in contract's rules. */
export const rules: ContractRules = readContractRules();

/** Length value of a text, counted in characters (code points), not UTF-16 units or bytes. */
export function lengthOfText(text: string, bands: readonly LengthBand[] = rules.lengths): string {
  const characters = [...text].length;
  const band = bands.find((candidate) => candidate.maxCharacters === null || characters <= candidate.maxCharacters);
  return (band ?? (bands.at(-1) as LengthBand)).name;
}
