import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import PQueue from 'p-queue';
import { refusalAnswers } from '@quotes/key-pages';
import { Problem } from '@quotes/service-base/problems';

export interface PublicPagesBounds {
  /** Requests of the public pages worked on at once (PUBLIC_PAGES_AT_ONCE). */
  readonly atOnce: number;
  /** Requests waiting for a place at most (PUBLIC_PAGES_QUEUED); past it, 503. */
  readonly queued: number;
  /** Requests started in any second at most (PUBLIC_PAGES_PER_SECOND): the event-loop time strangers get. */
  readonly perSecond: number;
}

/** What a full queue tells the client to wait: the queue empties in well under this at its bounds. */
export const busyRetryAfterSeconds = 5;

/**
 * A refusal is answered this long after it arrived (at most `maxHeldRefusals` held at once,
 * past that at once): a client that posts again as soon as it is answered, as a flood does,
 * then costs the event loop at most one refusal a second per connection.
 */
export const refusalDelayMs = 1000;
export const maxHeldRefusals = 1024;

/** The pages strangers reach without a key: asking for one, confirming it, the holders' pages. */
const publicPath = /^\/(keys\/|terms(\?|$)|account([/?]|$))/;

/** A browser (its Accept names HTML) gets the page; anything else problem details. */
const wantsPage = (request: IncomingMessage) => (request.headers.accept ?? '').includes('text/html');

/**
 * The public pages' bulkhead: their requests are worked on `atOnce` at a time and at most
 * `perSecond` a second, on their own database pool (startServer), and at most `queued` wait; past that a request is refused at once
 * (503, Retry-After, a page in words for a browser), before its body is read. A flood of
 * strangers then waits in its own line and never takes the connections, the locks or more
 * than its share of the event loop that the API's calls need. A request whose client left while it waited is dropped unworked.
 */
export function publicPagesBulkhead(bounds: PublicPagesBounds) {
  const queue = new PQueue({ concurrency: bounds.atOnce, intervalCap: bounds.perSecond, interval: 1000 });
  const refusal = refusalAnswers(
    new Problem(
      'service-unavailable',
      `The key and account pages are busy: ${bounds.queued} requests are waiting already. Nothing was recorded; try again in ${busyRetryAfterSeconds} seconds.`,
      { headers: { 'Retry-After': String(busyRetryAfterSeconds) } },
    ),
  );
  let held = 0;
  /** Queues a public page's request for its turn. */
  const inTurn: RequestHandler = (request, response, next) => {
    if (!publicPath.test(request.url)) return next();
    void queue.add(
      () =>
        new Promise<void>((resolve) => {
          if (response.writableEnded || request.destroyed) return resolve();
          response.once('close', () => resolve());
          next();
        }),
    );
  };
  return {
    queue,
    inTurn,
    /**
     * Answers a public page's request past the full queue, before the app sees it, a second
     * later (refusalDelayMs): a flood of refusals costs the event loop a prepared answer each, not
     * a trip through the app, and few of them, so the requests at work (and the API's calls) keep
     * their turns. True when it took the request.
     */
    refused(request: IncomingMessage, response: ServerResponse): boolean {
      if (queue.size < bounds.queued || !publicPath.test(request.url ?? '')) return false;
      const answer = refusal[wantsPage(request) ? 'page' : 'problem'];
      const send = () => {
        if (response.destroyed) return;
        response.writeHead(503, { ...answer.headers, 'Content-Length': answer.body.length });
        response.end(answer.body);
      };
      if (held >= maxHeldRefusals) {
        send();
        return true;
      }
      held++;
      setTimeout(() => {
        held--;
        send();
      }, refusalDelayMs).unref();
      return true;
    },
  };
}
