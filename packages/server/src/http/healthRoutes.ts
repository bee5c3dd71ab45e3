import { type Router, Router as createRouter } from 'express';
import { sql } from 'kysely';
import type { DatabaseHandle } from '@quotes/database';
import type { DatabaseOutage } from '../databaseOutage.js';
import { Problem, serviceUnavailable } from '@quotes/service-base/problems';
import { sendApiResponse } from '@quotes/service-base';

/** Probes outside /v1 and outside the contract: no key, never counted. */
export function healthRoutes(
  database: DatabaseHandle,
  outage: DatabaseOutage,
  lifecycle: { readonly draining: boolean },
): Router {
  const router = createRouter();
  router.get('/healthz', (_request, response) => {
    sendApiResponse(response, { status: 200, body: JSON.stringify({ status: 'ok' }) });
  });
  router.get('/readyz', async (_request, response) => {
    // Failing first on shutdown, so a load balancer stops sending before the listener closes.
    if (lifecycle.draining) {
      throw new Problem('service-unavailable', 'The server is shutting down.', { headers: { 'Retry-After': '1' } });
    }
    try {
      await sql`SELECT 1`.execute(database.db);
    } catch (error) {
      outage.failed(error);
      throw serviceUnavailable();
    }
    outage.succeeded();
    sendApiResponse(response, { status: 200, body: JSON.stringify({ status: 'ready' }) });
  });
  return router;
}
