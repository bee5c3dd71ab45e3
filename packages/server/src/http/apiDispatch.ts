import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';

/**
 * The API's calls (`/v1/...`, nearly all the traffic) run through their middleware here, in
 * order, without Express's router: Express gives every request and response another prototype
 * (`Object.setPrototypeOf`, twice), builds a final handler and walks its layers on every call,
 * 2-4 µs of the server's 30-40 µs of CPU per quotes-categories call under load (A/B, nine
 * alternating rounds in two runs). The chain's handlers read only what Node's request and response have,
 * plus the two properties Express would set and they use (`originalUrl`, `locals`); like
 * Express 5, a handler's rejected promise goes to the error handler. Every other path (probes,
 * pages, the reference page) still goes through Express.
 */
export function apiDispatch(
  chain: readonly RequestHandler[],
  onError: ErrorRequestHandler,
  writeHead: ServerResponse['writeHead'],
): (request: IncomingMessage, response: ServerResponse) => void {
  return (incoming, outgoing) => {
    const request = incoming as Request;
    const response = outgoing as Response;
    request.originalUrl = incoming.url ?? '/';
    response.locals = {};
    // What Express's response prototype does for the responses it dispatches (drainAwareResponse.ts).
    outgoing.writeHead = writeHead;
    let index = 0;
    const fail = (error: unknown) =>
      onError(error ?? new Error('a handler rejected without a reason'), request, response, () => undefined);
    const next = (error?: unknown): void => {
      if (error !== undefined) {
        fail(error);
        return;
      }
      const handler = chain[index++];
      if (handler === undefined) {
        fail(new Error(`no handler answered ${request.originalUrl}`));
        return;
      }
      try {
        const result: unknown = handler(request, response, next);
        if (result instanceof Promise) result.catch(fail);
      } catch (thrown) {
        fail(thrown);
      }
    };
    next();
  };
}
