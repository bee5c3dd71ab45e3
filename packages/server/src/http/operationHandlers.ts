import type { Context, Handler } from 'openapi-backend';
import type { ApiKeyRecord } from '../data/apiKeys.js';
import { callsInMonth } from '../data/monthlyUsage.js';
import { calendarMonthOf } from '../domain/calendarMonth.js';
import {
  describeFilters,
  filterNames,
  type RawFilters,
  type ResolvedFilter,
  resolveFilters,
} from '../domain/filterResolution.js';
import { applyPageLimits } from '../domain/pagination.js';
import { effectiveLimits, planViolation } from '../domain/plans.js';
import { usageSummary } from '../domain/usageSummary.js';
import { invalidRequest, type ParameterError, Problem } from '../problems.js';
import type { ServiceRuntime } from '../serviceRuntime.js';
import type { ApiExchange } from './apiExchange.js';
import { type ApiResponse, jsonResponse } from './apiResponse.js';
import { authenticateCaller } from './callerAuthentication.js';
import { ifNoneMatchMatches } from './conditionalRequest.js';
import { countedCall } from './countedCall.js';
import { mergeParameterErrors, parameterErrorsFromSchema, type SchemaError } from './requestScreening.js';

type ExchangeHandler = (context: Context, exchange: ApiExchange) => unknown;

function rawFiltersOf(query: Record<string, string>, except: ReadonlySet<string> = new Set()): RawFilters {
  const raw: RawFilters = {};
  for (const name of filterNames) {
    const value = query[name];
    if (value !== undefined && !except.has(name)) raw[name] = value;
  }
  return raw;
}

function filterErrors(raw: RawFilters): ParameterError[] {
  const resolution = resolveFilters(raw);
  return resolution.ok ? [] : resolution.errors;
}

/** The caller found by the security stage; only operation handlers ask, after it succeeded. */
async function authenticatedKey(exchange: ApiExchange): Promise<ApiKeyRecord> {
  const resolution = await exchange.caller;
  if (!resolution?.ok) throw new Error('operation reached without an authenticated caller');
  return resolution.key;
}

interface QuoteCall {
  key: ApiKeyRecord;
  raw: RawFilters;
  filter: ResolvedFilter;
}

/** Steps 3 (what the schema cannot say: screening, taxonomy) and 4 (plan rules) for the quote operations. */
async function prepareQuoteCall(exchange: ApiExchange): Promise<QuoteCall> {
  const key = await authenticatedKey(exchange);
  const raw = rawFiltersOf(exchange.acceptedQuery);
  const resolution = resolveFilters(raw);
  const errors = mergeParameterErrors(exchange.screeningErrors, resolution.ok ? [] : resolution.errors);
  if (errors.length > 0 || !resolution.ok) throw invalidRequest(errors);
  const violation = planViolation(key.plan, resolution.filter.given);
  if (violation) throw new Problem('plan-limit', violation);
  return { key, raw, filter: resolution.filter };
}

export function createOperationHandlers(runtime: ServiceRuntime): Record<string, ExchangeHandler> {
  const getRandomQuote: ExchangeHandler = async (_context, exchange) => {
    const call = await prepareQuoteCall(exchange);
    return countedCall(runtime, call.key, async () => {
      const quote = await runtime.catalog.randomQuote(call.filter);
      if (!quote) {
        const filters = describeFilters(call.raw);
        throw new Problem(
          'no-match',
          filters ? `No quote matches ${filters}.` : 'No quote matches: the corpus is empty.',
        );
      }
      return { status: 200, body: quote };
    });
  };

  const listQuotes: ExchangeHandler = async (context, exchange) => {
    const call = await prepareQuoteCall(exchange);
    const query = context.request.query as { limit?: number; offset?: number };
    const page = applyPageLimits(query, effectiveLimits(call.key.plan, call.key.overrides).maxLimit);
    return countedCall(runtime, call.key, async () => {
      const result = await runtime.catalog.page(call.filter, page);
      // The items arrive as JSON; the envelope is written around them in the contract's order.
      const body = `{"quotes":[${result.items.json}],"total":${result.total},"limit":${page.limit},"offset":${page.offset},"has_more":${result.hasMore}}`;
      return { status: 200, body };
    });
  };

  const listFilterValues: ExchangeHandler = async (context, exchange) => {
    const key = await authenticatedKey(exchange);
    return countedCall(runtime, key, async (): Promise<ApiResponse> => {
      const { body, etag } = await runtime.catalog.filterValuesBody();
      const headers = { ETag: etag, 'Cache-Control': 'private, no-cache' };
      if (ifNoneMatchMatches(context.request.headers['if-none-match'], etag)) return { status: 304, body: '', headers };
      return { status: 200, body, headers };
    });
  };

  const getUsage: ExchangeHandler = async (_context, exchange) => {
    const key = await authenticatedKey(exchange);
    const now = runtime.clock();
    const calls = await callsInMonth(runtime.database.db, key.id, calendarMonthOf(now).key);
    const limit = effectiveLimits(key.plan, key.overrides).monthlyCalls;
    return jsonResponse(usageSummary({ client: key.client, planId: key.plan.id, calls, limit, now }));
  };

  return { getRandomQuote, listQuotes, listFilterValues, getUsage };
}

/** Both security schemes resolve the same caller, once per request. */
export function createSecurityHandler(runtime: ServiceRuntime): Handler {
  return async (context: Context, exchange: ApiExchange) => {
    exchange.caller ??= authenticateCaller(context.request.headers, runtime.keys, runtime.clock());
    const resolution = await exchange.caller;
    return resolution.ok ? resolution.key : false;
  };
}

/** Steps 1-2 failed: 401 or 403 with the problem found; a database failure propagates (503). */
export const unauthorizedHandler: Handler = async (_context: Context, exchange: ApiExchange) => {
  const resolution = await exchange.caller;
  if (!resolution)
    throw new Problem('missing-api-key', 'Send your key in the X-API-Key header or as Authorization Bearer.');
  if (resolution.ok) throw new Error('unauthorizedHandler reached with an authenticated caller');
  if ('problem' in resolution) throw resolution.problem;
  throw resolution.error;
};

/** Step 3 failed in the schema: report it with everything else wrong with the request. */
export const validationFailHandler: Handler = (context: Context, exchange: ApiExchange) => {
  const schemaErrors = parameterErrorsFromSchema((context.validation.errors ?? []) as SchemaError[]);
  const failed = new Set(schemaErrors.map((error) => error.parameter));
  const taxonomyErrors = filterErrors(rawFiltersOf(exchange.acceptedQuery, failed));
  throw invalidRequest(mergeParameterErrors(exchange.screeningErrors, schemaErrors, taxonomyErrors));
};
