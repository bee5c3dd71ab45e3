import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';

/** A request's headers must have arrived this long after it began (Node's default: 60 s). */
export const headersTimeoutMs = 10_000;
/** A whole request, headers and body, must have arrived this long after it began (Node's default: 300 s). */
export const requestTimeoutMs = 30_000;
/** A body still arriving must bring at least this many bytes a second, averaged over the last window. */
export const minBodyBytesPerSecond = 1024;
/** The window the body's rate is averaged over; a body that falls behind is cut at the next check. */
export const bodyRateWindowMs = 5_000;
/** How often bodies in progress are checked, and how often Node checks the two timeouts above. */
export const slowClientCheckMs = 500;

/**
 * The server's own bounds on slow clients: Node checks its timeouts only every
 * `connectionsCheckingInterval` (30 s by default, which would stretch the headers' 10 s to 40).
 * A cut comes at most one check after its deadline, and a busy event loop can run a check late:
 * the stated bounds (README) are the deadline plus two checks, 11 s for headers, 6 s for a body.
 */
export const slowClientServerOptions: ServerOptions = {
  headersTimeout: headersTimeoutMs,
  requestTimeout: requestTimeoutMs,
  connectionsCheckingInterval: slowClientCheckMs,
};

/** Requests the body-rate guard cut, so the request log says why their connection closed. */
export const cutForSlowBody = new WeakSet<IncomingMessage>();

const hasBody = (request: IncomingMessage) =>
  request.headers['transfer-encoding'] !== undefined ||
  (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0');

/**
 * The body-rate guard, for the server's 'request' event: a body that brings fewer than
 * `minBodyBytesPerSecond` over the last `bodyRateWindowMs` while still incomplete has its
 * connection closed (with Node's own 408 when nothing was answered yet). Node bounds only the
 * whole request's time; a body trickled at a few bytes a second would hold the connection for all
 * of it. The bytes are read off the socket's counter: watching the body's own data events would
 * take it from the parser that reads it.
 */
export function guardBodyRate(request: IncomingMessage, response: ServerResponse): void {
  if (!hasBody(request)) return;
  const { socket } = request;
  // Read now, while the socket is open: Node keeps it, so the log line of a cut request has it.
  void socket.remoteAddress;
  const windowChecks = bodyRateWindowMs / slowClientCheckMs;
  const leastInWindow = (minBodyBytesPerSecond * bodyRateWindowMs) / 1000;
  const readAt: number[] = [socket.bytesRead];
  const check = setInterval(() => {
    if (request.complete || socket.destroyed) {
      clearInterval(check);
      return;
    }
    readAt.push(socket.bytesRead);
    if (readAt.length <= windowChecks) return;
    if (readAt.length > windowChecks + 1) readAt.shift();
    if (readAt[readAt.length - 1]! - readAt[0]! >= leastInWindow) return;
    clearInterval(check);
    cutForSlowBody.add(request);
    if (!response.headersSent && socket.writable)
      socket.write('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    socket.destroy();
  }, slowClientCheckMs);
  check.unref();
  request.once('end', () => clearInterval(check));
  request.once('close', () => clearInterval(check));
}
