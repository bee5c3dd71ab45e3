import type { RequestHandler } from 'express';
import { checkWithoutData, crossOrigin, loadContractRouting, Problem } from '@quotes/server/data-free-checks';

/**
 * What the server refuses without looking at data (an unknown path or method, no key or two
 * different keys, a bad query), the mock refuses the same way: the server's own checks, bundled
 * in, give the same status, problem `type` and `Allow`. The same CORS answers too, except that
 * the mock has no keys, so it serves every origin. What passes goes on to Prism.
 */
export async function serverParity(): Promise<RequestHandler[]> {
  const routing = await loadContractRouting();
  const refusals: RequestHandler = (request, response, next) => {
    try {
      checkWithoutData(
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
    next();
  };
  return [crossOrigin(routing), refusals];
}
