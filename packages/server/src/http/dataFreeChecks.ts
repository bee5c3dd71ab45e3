import type { IncomingHttpHeaders } from 'node:http';
import type { ResolvedFilter } from '@quotes/accounts/rules';
import type { PlanRules } from '@quotes/accounts/rules';
import { presentedKey } from '../keys/presentedKey.js';
import { parseQuery, routeOf, withinPlan } from './apiCall.js';
import type { ContractRoute, ContractRouting } from './contractRouting.js';

export { loadContractRouting, type ContractRouting } from './contractRouting.js';
export { corsExposedHeaders, crossOrigin } from './crossOrigin.js';
export { KeyFairness, overCallsAtOnce, overCallsPerSecond } from '../fairness/keyFairness.js';
export { noMatch, Problem, type ProblemBody } from '@quotes/service-base/problems';
export type { ResolvedFilter } from '@quotes/accounts/rules';
export { describeFilters } from '@quotes/accounts/rules';
export {
  type AllowanceWindow,
  allowanceHeaders,
  allowanceWindow,
  exhaustedHeaders,
} from '../domain/allowanceHeaders.js';
export { allowancePeriod, calendarMonthOf, isoSeconds } from '@quotes/accounts/rules';
export { applyPageLimits, defaultLimit, pageWindow } from '@quotes/accounts/rules';
export { filterValuesBody, filterValuesEtag, usageSummary } from '../domain/responseBodies.js';
export { ifNoneMatchMatches } from './conditionalRequest.js';
export { allowanceExhausted } from './countedCall.js';
export { requestIdFor } from './requestId.js';

/**
 * The server's refusals that need no data (the route, a key presented, the query, and the plan
 * when the caller names one), in the contract's order, exactly as the server makes them: the mock
 * (@quotes/mock bundles this module, the package export `@quotes/server/data-free-checks`, and the
 * data-free rules re-exported above: allowance headers, page limits, bodies, request ids) refuses
 * and answers the same way. Whether the key is known, its state and origins need the database and
 * stay the server's.
 */
export function checkWithoutData(
  request: { readonly method: string; readonly url: string; readonly headers: IncomingHttpHeaders },
  routing: ContractRouting,
  plan?: PlanRules,
): { route: ContractRoute; key: string; query: Record<string, unknown>; filter: ResolvedFilter } {
  const route = routeOf(request, routing);
  const key = presentedKey(request.headers);
  const parsed = parseQuery(route, request.url);
  if (plan) withinPlan(plan, parsed.filter);
  return { route, key, ...parsed };
}
