import { rules } from '@quotes/contract';
import { apiReferenceRouter } from '@quotes/docs';
import type { RequestListener } from 'node:http';
import express, { type Request, type RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import { pageSighting } from '@quotes/accounts/rules';
import { clientNetworkOf } from '@quotes/accounts/rules';
import { applyPageLimits } from '@quotes/accounts/rules';
import type { Operations } from './operations.js';
import type { ServiceRuntime } from '../serviceRuntime.js';
import { unknownKeyBucket } from '@quotes/accounts';
import { servedOutcome } from '../data/history/usageHistory.js';
import { type ApiCall, parseCall } from './apiCall.js';
import { sendApiResponse } from '@quotes/service-base';
import type { ContractRouting } from './contractRouting.js';
import { countedCall, isCountedAnswer } from './countedCall.js';
import { crossOrigin } from './crossOrigin.js';
import { apiDispatch } from './apiDispatch.js';
import { drainAwareResponses, drainAwareWriteHead } from './drainAwareResponse.js';
import { healthRoutes } from './healthRoutes.js';
import { createOperationHandlers, handle } from './operationHandlers.js';
import { asProblem, problemResponder } from './problemResponder.js';
import { requestLog } from './requestLog.js';

/**
 * The server's request listener: request id and logging, the probes and the API reference (/docs,
 * /openapi.yaml, /openapi.json: public, outside /v1 and the contract), then every API call down
 * one path: parse (route, key, query, plan) -> count -> operation -> send; any problem thrown on
 * the way is rendered by the problem responder. Calls under /v1/ take the same middleware
 * without Express's router (apiDispatch.ts); everything else goes through the Express app.
 */
/** Whether a path is the API's (/v1 and below), what the history's refusals count. */
const isApiPath = (url: string): boolean => url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');

export function createApp(
  runtime: ServiceRuntime,
  routing: ContractRouting,
  /** Sees every request first (the metrics' call counts and latencies); none when metrics are off. */
  observeCalls?: RequestHandler,
  /** Pages outside /v1 and their posts (asking for a key), mounted beside the reference page. */
  pages?: RequestHandler,
): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // The query is parsed once, by the screening (repeated and empty parameters must stay visible).
  app.set('query parser', false);
  drainAwareResponses(app, runtime.lifecycle);

  const handlers = createOperationHandlers(runtime);
  const { history } = runtime;
  // Parsing an address costs 1.8 µs, a look-up here 0.1 µs: clients come back on few addresses.
  const networks = new LRUCache<string, string>({ max: 10_000 });
  /** A call the counter keeps: counted in the history, with what the signs of broken terms read (the quotes it served among them). */
  const served = (call: ApiCall, request: Request, nowMs: number, ranks?: readonly number[]) => {
    if (history === undefined) return;
    const keyId = call.caller.key.id;
    history.record(keyId, servedOutcome, nowMs);
    if (ranks !== undefined) history.cover(keyId, ranks, nowMs);
    const network = networkOf(runtime.clientAddress(request), networks);
    if (network !== undefined) history.sight(keyId, 'network', network, nowMs);
    const origin = request.headers.origin;
    if (origin !== undefined) history.sight(keyId, 'origin', origin.slice(0, 200), nowMs);
    if (call.operationId === 'listQuotes') {
      const query = call.query as Operations['listQuotes']['query'];
      history.sight(keyId, 'page', pageSighting(query, applyPageLimits(query, call.caller.limits.maxLimit)), nowMs);
    }
  };
  const handleApiCall: RequestHandler = async (request, response, next) => {
    let call: ApiCall | undefined;
    try {
      call = await parseCall(
        // Mounted under /v1, Express strips the prefix from url: the call is routed on the original.
        { method: request.method, url: request.originalUrl ?? request.url, headers: request.headers },
        routing,
        runtime.keys,
        runtime.clock(),
      );
      const parsed = call;
      const run = () => countedCall(runtime, parsed, () => handle(handlers, parsed));
      // Step 5: the burst limit and calls at once bound the operations that count (the contract's).
      const limited = (rules.countedStatuses.get(call.operationId) ?? []).length > 0;
      const { key } = call.caller;
      const answer = await (limited ? runtime.fairness.run(key.id, key.plan.requestsPerSecond, run) : run());
      // The history's `served` is what the monthly counter keeps; a free call (quotes-usage) is neither.
      if (isCountedAnswer(call.operationId, answer.status))
        served(call, request, runtime.clock().getTime(), 'ranks' in answer ? answer.ranks : undefined);
      // No outage ends here: an answer from memory proves nothing of the database. A committed
      // counting round or /readyz does (outage.succeeded).
      const counted = 'counted' in answer ? answer.counted : undefined;
      if (counted === undefined) sendApiResponse(response, answer);
      // Written ahead: a counted answer leaves once its call is in the journal (CountJournal), in
      // a later step of the turn, where a failure to write it goes to the problem responder.
      else
        counted.journal(() => {
          try {
            sendApiResponse(response, answer);
          } catch (error) {
            next(error);
          }
        });
    } catch (error) {
      const problem = asProblem(error);
      if (call !== undefined && isCountedAnswer(call.operationId, problem.status))
        served(call, request, runtime.clock().getTime());
      // Refusals are of API calls: a browser's /favicon.ico or a scanner's /wp-login.php is no call.
      else if (isApiPath(request.originalUrl ?? request.url))
        history?.record(
          call?.caller.key.id ?? problem.keyId ?? unknownKeyBucket,
          problem.kind,
          runtime.clock().getTime(),
        );
      throw error;
    }
  };
  // Answers for one key: never stored by a shared cache, never sniffed into another type. An
  // operation with its own caching rule (quotes-categories revalidates) sets Cache-Control itself.
  const apiAnswerHeaders: RequestHandler = (_request, response, next) => {
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cache-Control', 'no-store');
    next();
  };

  const first = [
    ...(observeCalls ? [observeCalls] : []),
    requestLog(runtime.log, runtime.clientAddress),
    crossOrigin(routing),
  ];
  const respondWithProblem = problemResponder(runtime.log, runtime.outage);
  for (const handler of first) app.use(handler);
  // API calls first: they are nearly all the traffic, and each router they skip is a path match saved.
  app.use('/v1', apiAnswerHeaders, handleApiCall);
  app.use(healthRoutes(runtime.database, runtime.outage, runtime.lifecycle));
  if (pages) app.use(pages);
  app.use(apiReferenceRouter());
  // Everything else gets the contract routing's 404 or 405, as problem details.
  app.use(handleApiCall);
  app.use(respondWithProblem);
  const api = apiDispatch(
    [...first, apiAnswerHeaders, handleApiCall],
    respondWithProblem,
    drainAwareWriteHead(runtime.lifecycle),
  );
  return (request, response) => (request.url?.startsWith('/v1/') ? api(request, response) : app(request, response));
}

/** The client network of an address, or none for one that cannot be read (a closed socket has none). */
function networkOf(address: string | undefined, known: LRUCache<string, string>): string | undefined {
  if (!address) return undefined;
  let network = known.get(address);
  if (network !== undefined) return network;
  try {
    network = clientNetworkOf(address).network;
  } catch {
    return undefined;
  }
  known.set(address, network);
  return network;
}
