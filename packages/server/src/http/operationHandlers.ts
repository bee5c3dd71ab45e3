import { allowancePeriod, calendarMonthOf } from '@quotes/accounts/rules';
import { describeFilters } from '@quotes/accounts/rules';
import { applyPageLimits } from '@quotes/accounts/rules';
import { type JsonText, usageBody, usageSummary } from '../domain/responseBodies.js';
import { noMatch } from '@quotes/service-base/problems';
import type { FirstAsk } from '../data/catalog/quoteCatalog.js';
import type { ServiceRuntime } from '../serviceRuntime.js';
import type { ApiCall } from './apiCall.js';
import { ifNoneMatchMatches } from './conditionalRequest.js';
import type { OperationId, Operations } from './operations.js';

/** An operation's answer: its 200 body, typed by the contract (and the corpus positions it served), or a 304 without one. */
export type OperationResponse<Op extends OperationId> =
  | {
      readonly status: 200;
      readonly body: JsonText<Operations[Op]['body']>;
      readonly headers?: Record<string, string>;
      readonly ranks?: readonly number[];
    }
  | { readonly status: 304; readonly headers: Record<string, string> };

export type OperationHandler<Op extends OperationId> = (call: ApiCall<Op>) => Promise<OperationResponse<Op>>;

export type OperationHandlers = { readonly [Op in OperationId]: OperationHandler<Op> };

/** The operations, as functions of a parsed call: every check before them has passed. */
export function createOperationHandlers(runtime: ServiceRuntime): OperationHandlers {
  return {
    async getRandomQuote(call) {
      const quote = await inItsTurn(runtime, call, (firstAsk) => runtime.catalog.randomQuote(call.filter, firstAsk));
      if (!quote) throw noMatch(describeFilters(call.query));
      return { status: 200, body: quote.body, ranks: [quote.rank] };
    },

    async listQuotes(call) {
      const page = applyPageLimits(call.query, call.caller.limits.maxLimit);
      const { body, ranks } = await inItsTurn(runtime, call, (firstAsk) =>
        runtime.catalog.pageBody(call.filter, page, firstAsk),
      );
      return { status: 200, body, ranks };
    },

    async listFilterValues(call) {
      const { body, etag } = await runtime.catalog.filterValuesBody();
      const headers = { ETag: etag, 'Cache-Control': 'private, no-cache' };
      if (ifNoneMatchMatches(call.ifNoneMatch, etag)) return { status: 304, headers };
      return { status: 200, body, headers };
    },

    async getUsage(call) {
      const { key, limits } = call.caller;
      const now = runtime.clock();
      const period = allowancePeriod(key.plan, key, now);
      const [callsThisMonth, earlier] = await Promise.all([
        runtime.counter.callsInMonth(key.id, calendarMonthOf(now).key),
        runtime.earlierCalls.of(key.id, period, now),
      ]);
      const usage = usageSummary({
        client: key.client,
        plan: key.plan,
        callsThisMonth,
        callsInPeriod: callsThisMonth + earlier,
        limit: limits.monthlyCalls,
        period,
      });
      return { status: 200, body: usageBody(usage) };
    },
  };
}

/**
 * A read whose filter combination is new to this server runs as its key's cold work (see
 * ColdWork). What a key sending most of the cold calls asks first is built and forgotten, so a
 * flood's repeated combinations stay cold work, paced, until their second ask; other keys' first
 * asks may be kept (decision 0072).
 */
function inItsTurn<T>(runtime: ServiceRuntime, call: ApiCall, read: (firstAsk: FirstAsk) => Promise<T>): Promise<T> {
  const keyId = call.caller.key.id;
  const firstAsk = (): FirstAsk => (runtime.coldWork.paces(keyId) ? 'kept-from-second-ask' : 'kept-in-free-room');
  if (!runtime.catalog.isNew(call.filter)) return read(firstAsk());
  return runtime.coldWork.run(keyId, runtime.fairness.othersServed(keyId), () => read(firstAsk()));
}

/** The handler of the call's operation (the one place the operation's type is joined to its handler). */
export function handle(handlers: OperationHandlers, call: ApiCall): Promise<OperationResponse<OperationId>> {
  const handler = handlers[call.operationId] as OperationHandler<OperationId>;
  return handler(call);
}
