import type { ErrorRequestHandler } from 'express';
import { isDatabaseUnavailable } from '../data/databaseAvailability.js';
import type { DatabaseOutage } from '../databaseOutage.js';
import type { Logger } from '@quotes/service-base';
import { sendProblem } from '@quotes/service-base';
import { Problem, serviceUnavailable } from '@quotes/service-base/problems';
import { bodyReadProblem, clientWentAway } from './bodyReadErrors.js';
import { requestIdOf } from './requestLog.js';

/** Whatever was thrown, as the problem the client sees: expected problems as they are, the rest 503 or 500. */
export function asProblem(error: unknown): Problem {
  if (error instanceof Problem) return error;
  if (isDatabaseUnavailable(error)) return serviceUnavailable();
  const bodyProblem = bodyReadProblem(error);
  if (bodyProblem) return bodyProblem;
  return new Problem(
    'internal-error',
    'An unexpected error occurred; quote the instance (request id) when reporting it.',
  );
}

/** The one place errors become responses: RFC 9457 problem details, `application/problem+json`. */
export function problemResponder(log: Logger, outage: DatabaseOutage): ErrorRequestHandler {
  return (error, request, response, _next) => {
    // No one to answer, nothing failed here: the request log's line says the client closed it.
    if (clientWentAway(error, request)) {
      response.destroy();
      return;
    }
    const problem = asProblem(error);
    const reqId = requestIdOf(response);
    if (problem.kind === 'service-unavailable') {
      if (!(error instanceof Problem)) outage.failed(error);
    } else if (problem.status >= 500) log.error({ reqId, err: error }, 'request failed');
    if (response.headersSent) {
      response.destroy();
      return;
    }
    if (problem.counted === undefined) {
      sendProblem(response, problem, reqId);
      return;
    }
    // A counted answer (a 404 no-match) leaves once its call is in the journal (CountJournal).
    problem.counted.journal(() => {
      try {
        sendProblem(response, problem, reqId);
      } catch {
        response.destroy();
      }
    });
  };
}
