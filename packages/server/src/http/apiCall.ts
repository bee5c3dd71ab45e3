import type { IncomingHttpHeaders } from 'node:http';
import { type RawFilters, type ResolvedFilter, filterNames, resolveFilters } from '@quotes/accounts/rules';
import { type PlanRules, planViolation } from '@quotes/accounts/rules';
import { type AuthorizedKey, authorizeCaller } from '../keys/keyService.js';
import type { KeyCache } from '../keys/keyCache.js';
import { invalidRequest, Problem } from '@quotes/service-base/problems';
import type { ContractRoute, ContractRouting } from './contractRouting.js';
import type { OperationId, Operations } from './operations.js';
import { mergeParameterErrors, parameterErrorsFromSchema, parseQueryString, screenQuery } from './requestScreening.js';

/**
 * One API call, parsed once and then read-only: which operation, its query as the contract types
 * it (validated and coerced), the filters resolved against the taxonomy, and the caller with the
 * limits it lives by. Handlers are functions of it.
 */
export interface ApiCall<Op extends OperationId = OperationId> {
  readonly operationId: Op;
  readonly query: Readonly<Operations[Op]['query']>;
  /** Resolved filters; all null for operations that take none. */
  readonly filter: ResolvedFilter;
  readonly caller: AuthorizedKey;
  readonly ifNoneMatch: string | undefined;
}

/** What of an HTTP request the parse reads. */
export interface CallRequest {
  readonly method: string;
  /** Path and query string, as received. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

const unfilteredResolution = resolveFilters({});
if (!unfilteredResolution.ok) throw new Error('no filters must resolve');
const unfiltered = unfilteredResolution.filter;

function rawFiltersOf(query: Readonly<Record<string, unknown>>, except: ReadonlySet<string>): RawFilters {
  const raw: RawFilters = {};
  for (const name of filterNames) {
    const value = query[name];
    if (typeof value === 'string' && !except.has(name)) raw[name] = value;
  }
  return raw;
}

/** The operation a request names, else the 404 or 405 thrown (with Allow). */
export function routeOf(request: Pick<CallRequest, 'method' | 'url'>, routing: ContractRouting): ContractRoute {
  const queryStart = request.url.indexOf('?');
  const path = queryStart >= 0 ? request.url.slice(0, queryStart) : request.url;
  const match = routing.match(request.method, path);
  if ('notFound' in match) {
    throw new Problem(
      'not-found',
      `No operation at ${path}: paths are exact, without a trailing slash; the operations are listed at /docs.`,
    );
  }
  if ('allowedMethods' in match) {
    const allowed = match.allowedMethods.join(', ');
    throw new Problem(
      'method-not-allowed',
      `${request.method.toUpperCase()} is not allowed on ${path}; use ${allowed}.`,
      {
        headers: { Allow: allowed },
      },
    );
  }
  return match.route;
}

/**
 * Step 3 of the order of checks, which needs no data: the query screened (unknown, empty or
 * repeated parameters), validated and coerced by the contract's schemas, and its filters
 * resolved against the taxonomy, every finding at once (else the 400 is thrown).
 */
export function parseQuery(
  route: ContractRoute,
  url: string,
): { query: Record<string, unknown>; filter: ResolvedFilter } {
  // An operation without a documented 400 takes no parameters and cannot refuse one: its query is ignored.
  const query: Record<string, unknown> = {};
  if (!route.answers400) return { query, filter: unfiltered };
  const queryStart = url.indexOf('?');
  const search = queryStart >= 0 ? url.slice(queryStart + 1) : '';
  const screened = screenQuery(parseQueryString(search), route.queryParameters);
  Object.assign(query, screened.accepted);
  const schemaErrors = parameterErrorsFromSchema(route.validateQuery(query));
  const failed = new Set(schemaErrors.map((error) => error.parameter));
  const resolution = resolveFilters(rawFiltersOf(query, failed));
  const errors = mergeParameterErrors(screened.errors, schemaErrors, resolution.ok ? [] : resolution.errors);
  if (errors.length > 0 || !resolution.ok) throw invalidRequest(errors);
  return { query, filter: resolution.filter };
}

/** Step 4 of the order of checks: the filters a call gives within its plan, else the 403 thrown. */
export function withinPlan(plan: PlanRules, filter: ResolvedFilter): void {
  const violation = planViolation(plan, filter.given);
  if (violation) throw new Problem('plan-limit', violation);
}

/**
 * The contract's order of checks up to the allowance: the route (404, 405), the key (401, 403
 * revoked or expired), the request (400: unknown, empty or repeated parameters, the schema, the
 * taxonomy, every finding at once), the plan (403). Each failure is thrown as its problem.
 */
export async function parseCall(
  request: CallRequest,
  routing: ContractRouting,
  keys: KeyCache,
  now: Date,
): Promise<ApiCall> {
  const route = routeOf(request, routing);
  const caller = await authorizeCaller(request.headers, keys, now);

  let parsed: ReturnType<typeof parseQuery>;
  try {
    parsed = parseQuery(route, request.url);
    withinPlan(caller.key.plan, parsed.filter);
  } catch (error) {
    if (error instanceof Problem) error.keyId = caller.key.id;
    throw error;
  }
  const { query, filter } = parsed;

  const ifNoneMatch = request.headers['if-none-match'];
  return Object.freeze({
    operationId: route.operationId,
    query: Object.freeze(query) as ApiCall['query'],
    filter,
    caller,
    ifNoneMatch: Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch,
  });
}
