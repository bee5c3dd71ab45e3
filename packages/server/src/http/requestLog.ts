import type { IncomingMessage } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { isIP } from 'node:net';
import type { Logger } from '@quotes/service-base';
import { cutForSlowBody } from './slowClients.js';
import { loggedUrl } from './loggedUrl.js';
import { requestIdFor } from './requestId.js';

/**
 * The User-Agent's first product (`curl/8.5.0`, `Mozilla/5.0`): the rest is free text a client
 * chose (comments, names, keys pasted by mistake), and the log writes no such text.
 */
const userAgentProduct = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,40}(?:\/[A-Za-z0-9!#$%&'*+.^_`|~-]{1,40})?/;

/** The request id given to a response by requestLog (the problem's `instance`). */
export function requestIdOf(response: Response): string | undefined {
  const id: unknown = response.locals.requestId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * A request id (requestId.ts), echoed in X-Request-Id, and one structured line per finished
 * request. Deliberately not pino-http: it serialises the whole request, headers included, into a
 * child logger on every call, whatever the level, which cost a fifth of the CPU under load.
 * Headers are never logged here, nor bodies; the URL is written with its secrets redacted and the
 * logger's rule (logRedaction.ts) still guards every line. One line per request: `request
 * completed` (error level for a 5xx other than 503, else info), or, for a request whose
 * connection closed before its answer, an info line saying why, never a stack.
 */
export function requestLog(
  log: Logger,
  /** The client's address (TRUST_PROXY's rule: keyRequests/clientAddress.ts); default the socket's. */
  clientAddress: (request: IncomingMessage) => string | undefined = (request) => request.socket.remoteAddress,
): RequestHandler {
  return (request, response, next) => {
    const id = requestIdFor(request.headers);
    response.locals.requestId = id;
    response.setHeader('X-Request-Id', id);
    if (log.isLevelEnabled('error')) {
      const started = performance.now();
      // 'close' follows every response, finished or not: one listener writes either line.
      response.once('close', () => {
        const finished = response.writableFinished;
        const status = response.statusCode;
        // A 503 is an outage, warned about once when it starts (DatabaseOutage), not per request.
        // A call the client gave up on, or whose body was too slow, is the client's doing: info, no stack.
        const level = finished && status >= 500 && status !== 503 ? 'error' : 'info';
        if (!log.isLevelEnabled(level)) return;
        const address = clientAddress(request);
        // X-Forwarded-For is whatever the client wrote: only an address is written as one.
        const remoteAddress = address === undefined || isIP(address) ? address : 'not an address';
        // Behind a trusted proxy: which one passed the call on.
        const proxyAddress = address === request.socket.remoteAddress ? undefined : request.socket.remoteAddress;
        const line = {
          reqId: id,
          req: {
            method: request.method,
            // Keys, tokens and addresses in the URL are not written (loggedUrl.ts).
            url: loggedUrl(request.originalUrl),
            remoteAddress,
            proxyAddress,
            userAgent: userAgentProduct.exec(request.headers['user-agent'] ?? '')?.[0],
          },
          responseTime: Math.round((performance.now() - started) * 10) / 10,
        };
        if (finished) log[level]({ ...line, res: { statusCode: status } }, 'request completed');
        else if (cutForSlowBody.has(request))
          log.info({ ...line, closed: 'body too slow' }, 'request cut: its body arrived too slowly');
        else log.info({ ...line, closed: 'by the client' }, 'request closed by the client before its answer');
      });
    }
    next();
  };
}
