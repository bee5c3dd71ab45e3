import type { RequestHandler } from 'express';
import { checkWithoutData, crossOrigin, loadContractRouting, Problem } from '@quotes/server/data-free-checks';
import { createExampleAnswers } from './exampleAnswers.js';

/**
 * The server's headers on every answer under /v1 (after CORS preflights): never stored by a
 * shared cache, never sniffed into another type. Prism's own answers lack them; an answer that
 * comes back from Prism with its own Cache-Control keeps it, as the server's operations do.
 */
const apiAnswerHeaders: RequestHandler = (request, response, next) => {
  if (request.path === '/v1' || request.path.startsWith('/v1/')) {
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cache-Control', 'no-store');
  }
  next();
};

/**
 * What the server refuses without looking at data (an unknown path or method, no key or two
 * different keys, a bad query), the mock refuses the same way: the server's own checks, bundled
 * in, give the same status, problem `type` and `Allow`. The same CORS answers too, except that
 * the mock has no keys, so it serves every origin. quotes-random and quotes-filter are answered
 * from the mock's example quotes (exampleAnswers.ts); the rest goes on to Prism.
 */
export async function serverParity(options: { examples?: boolean } = {}): Promise<RequestHandler[]> {
  const routing = await loadContractRouting();
  const answerFromExamples = options.examples === false ? undefined : createExampleAnswers();
  const refusals: RequestHandler = (request, response, next) => {
    let checked: ReturnType<typeof checkWithoutData>;
    try {
      checked = checkWithoutData(
        { method: request.method, url: request.originalUrl ?? request.url, headers: request.headers },
        routing,
      );
    } catch (error) {
      if (!(error instanceof Problem)) {
        next(error);
        return;
      }
      const body = JSON.stringify(error.body());
      response.statusCode = error.status;
      for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
      response.setHeader('Content-Type', 'application/problem+json');
      response.setHeader('Content-Length', Buffer.byteLength(body));
      response.end(body);
      return;
    }
    // `Prefer` asks Prism for a documented answer; without it the examples answer, fitting the filters.
    const answer =
      request.headers.prefer === undefined && request.method !== 'OPTIONS'
        ? answerFromExamples?.(checked.route.operationId, checked.query, checked.filter)
        : undefined;
    if (!answer) {
      next();
      return;
    }
    response.statusCode = answer.status;
    for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
    response.setHeader('Content-Type', answer.contentType);
    response.setHeader('Content-Length', Buffer.byteLength(answer.body));
    response.end(answer.body);
  };
  return [crossOrigin(routing), apiAnswerHeaders, refusals];
}
