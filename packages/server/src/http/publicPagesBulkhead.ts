import type { RequestHandler } from 'express';
import PQueue from 'p-queue';
import { sendRefusalPage, wantsPage } from '@quotes/key-pages';
import { Problem } from '@quotes/service-base/problems';

export interface PublicPagesBounds {
  /** Requests of the public pages worked on at once (PUBLIC_PAGES_AT_ONCE). */
  readonly atOnce: number;
  /** Requests waiting for a place at most (PUBLIC_PAGES_QUEUED); past it, 503 at once. */
  readonly queued: number;
}

/** What a full queue tells the client to wait: the queue empties in well under this at its bounds. */
export const busyRetryAfterSeconds = 5;

/** The pages strangers reach without a key: asking for one, confirming it, the holders' pages. */
const publicPath = /^\/(keys\/|terms$|account(\/|$))/;

/**
 * The public pages' bulkhead: their requests are worked on `atOnce` at a time, on their own
 * database pool (startServer), and at most `queued` wait; past that a request is refused at once
 * (503, Retry-After, a page in words for a browser), before its body is read. A flood of
 * strangers then waits in its own line and never takes the event loop, the connections or the
 * locks the API's calls need. A request whose client left while it waited is dropped unworked.
 */
export function publicPagesBulkhead(bounds: PublicPagesBounds): RequestHandler & { readonly queue: PQueue } {
  const queue = new PQueue({ concurrency: bounds.atOnce });
  const handler: RequestHandler = (request, response, next) => {
    if (!publicPath.test(request.path)) return next();
    if (queue.size >= bounds.queued) {
      const problem = new Problem(
        'service-unavailable',
        `The key and account pages are busy: ${queue.size} requests are waiting already. Nothing was recorded; try again in ${busyRetryAfterSeconds} seconds.`,
        { headers: { 'Retry-After': String(busyRetryAfterSeconds) } },
      );
      if (wantsPage(request)) return sendRefusalPage(response, problem);
      return next(problem);
    }
    void queue.add(
      () =>
        new Promise<void>((resolve) => {
          if (response.writableEnded || request.destroyed) return resolve();
          response.once('close', () => resolve());
          next();
        }),
    );
  };
  return Object.assign(handler, { queue });
}
