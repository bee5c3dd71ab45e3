import type { IncomingHttpHeaders } from 'node:http';
import type { ResolvedFilter } from '../domain/filterResolution.js';
import { presentedKey } from '../keys/presentedKey.js';
import { parseQuery, routeOf } from './apiCall.js';
import type { ContractRoute, ContractRouting } from './contractRouting.js';

export { loadContractRouting, type ContractRouting } from './contractRouting.js';
export { corsExposedHeaders, crossOrigin } from './crossOrigin.js';
export { Problem, type ProblemBody } from '../problems.js';
export type { ResolvedFilter } from '../domain/filterResolution.js';

/**
 * The server's refusals that need no data (the route, a key presented, the query), in the
 * contract's order, exactly as the server makes them: the mock (@quotes/mock bundles this module,
 * the package export `@quotes/server/data-free-checks`) refuses the same requests the same way.
 * Whether the key is known, its state, origins and plan need the database and stay the server's.
 */
export function checkWithoutData(
  request: { readonly method: string; readonly url: string; readonly headers: IncomingHttpHeaders },
  routing: ContractRouting,
): { route: ContractRoute; query: Record<string, unknown>; filter: ResolvedFilter } {
  const route = routeOf(request, routing);
  presentedKey(request.headers);
  return { route, ...parseQuery(route, request.url) };
}
