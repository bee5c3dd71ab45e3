import { type Router, Router as createRouter } from 'express';
import { sql } from 'kysely';
import type { DatabaseHandle } from '@quotes/database';
import type { Logger } from '../log.js';
import { serviceUnavailable } from '../problems.js';
import { sendApiResponse } from './apiResponse.js';

/** Probes outside /v1 and outside the contract: no key, never counted. */
export function healthRoutes(database: DatabaseHandle, log: Logger): Router {
  const router = createRouter();
  router.get('/healthz', (_request, response) => {
    sendApiResponse(response, { status: 200, body: JSON.stringify({ status: 'ok' }) });
  });
  router.get('/readyz', async (_request, response) => {
    try {
      await sql`SELECT 1`.execute(database.db);
    } catch (error) {
      log.warn({ err: error }, 'readiness: database unreachable');
      throw serviceUnavailable();
    }
    sendApiResponse(response, { status: 200, body: JSON.stringify({ status: 'ready' }) });
  });
  return router;
}
