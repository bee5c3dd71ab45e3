import { apiReferenceRouter } from '@quotes/docs';
import express, { type Express, type RequestHandler } from 'express';
import type { OpenAPIBackend } from 'openapi-backend';
import type { ServiceRuntime } from '../serviceRuntime.js';
import { ApiExchange } from './apiExchange.js';
import { type ApiResponse, sendApiResponse } from './apiResponse.js';
import { healthRoutes } from './healthRoutes.js';
import { problemResponder } from './problemResponder.js';
import { requestIdOf, requestLog } from './requestLog.js';

/**
 * The Express app: request id and logging, the probes and the API reference (/docs,
 * /openapi.yaml, /openapi.json: public, outside /v1 and the contract), then everything else
 * through openapi-backend.
 */
export function createApp(runtime: ServiceRuntime, api: OpenAPIBackend): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // The query is parsed once, by the screening (repeated and empty parameters must stay visible).
  app.set('query parser', false);

  const handleApiCall: RequestHandler = async (request, response) => {
    const exchange = new ApiExchange(request, requestIdOf(response) ?? '');
    const answer = (await api.handleRequest(exchange.request, exchange)) as ApiResponse;
    sendApiResponse(response, answer);
  };

  app.use(requestLog(runtime.log));
  // API calls first: they are nearly all the traffic, and each router they skip is a path match saved.
  app.use('/v1', handleApiCall);
  app.use(healthRoutes(runtime.database, runtime.log));
  app.use(apiReferenceRouter());
  // Everything else gets openapi-backend's 404 or 405, as problem details.
  app.use(handleApiCall);
  app.use(problemResponder(runtime.log));
  return app;
}
