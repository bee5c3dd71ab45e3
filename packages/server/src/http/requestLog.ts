import type { IncomingMessage } from 'node:http';
import type { RequestHandler, Response } from 'express';
import type { Logger } from '@quotes/service-base';
import { requestIdFor } from './requestId.js';

/** The request id given to a response by requestLog (the problem's `instance`). */
export function requestIdOf(response: Response): string | undefined {
  const id: unknown = response.locals.requestId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * A request id (requestId.ts), echoed in X-Request-Id, and one structured line per finished
 * request. Deliberately not pino-http: it serialises the whole request, headers included, into a
 * child logger on every call, whatever the level, which cost a fifth of the CPU under load.
 * Headers are never logged here, so keys cannot leak through this line; the logger's redaction
 * still guards anything else.
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
      response.once('finish', () => {
        const status = response.statusCode;
        // A 503 is an outage, warned about once when it starts (DatabaseOutage), not per request.
        const level = status >= 500 && status !== 503 ? 'error' : 'info';
        if (!log.isLevelEnabled(level)) return;
        const remoteAddress = clientAddress(request);
        // Behind a trusted proxy: which one passed the call on.
        const proxyAddress = remoteAddress === request.socket.remoteAddress ? undefined : request.socket.remoteAddress;
        log[level](
          {
            reqId: id,
            req: {
              method: request.method,
              // A confirmation link's token confirms a key request: never written to the log.
              url: request.originalUrl.replace(/([?&]token=)[^&]*/g, '$1[redacted]'),
              remoteAddress,
              proxyAddress,
              userAgent: request.headers['user-agent'],
            },
            res: { statusCode: status },
            responseTime: Math.round((performance.now() - started) * 10) / 10,
          },
          'request completed',
        );
      });
    }
    next();
  };
}
