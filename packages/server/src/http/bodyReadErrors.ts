import type { IncomingMessage } from 'node:http';
import { invalidRequest, Problem } from '@quotes/service-base/problems';

/**
 * What reading a request's body failed on (body-parser and raw-body mark their errors with a
 * `type`), as the problem the client caused: never a 500, never a logged error, whichever route
 * parsed the body. Such errors carry the raw body (`body`), and a JSON parse error's message
 * quotes it: they are answered, not logged.
 */
export function bodyReadProblem(error: unknown): Problem | undefined {
  const { type, status, expose } = (error ?? {}) as { type?: unknown; status?: unknown; expose?: unknown };
  // A stream's own error while the body was read (a gzip body that is not gzip) comes without a type.
  const unreadable = invalidRequest([{ parameter: 'body', message: 'could not be read' }]);
  if (typeof type !== 'string')
    return expose === true && typeof status === 'number' && status >= 400 && status < 500 ? unreadable : undefined;
  switch (type) {
    case 'entity.too.large':
      return new Problem('request-too-large', 'The request body is larger than this endpoint accepts.');
    case 'parameters.too.many':
      return invalidRequest([{ parameter: 'body', message: 'has more fields than the form has' }]);
    case 'entity.parse.failed':
      return invalidRequest([{ parameter: 'body', message: 'could not be parsed (not valid JSON or form data)' }]);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return invalidRequest([
        { parameter: 'body', message: 'has a charset or Content-Encoding this service does not read' },
      ]);
    case 'request.size.invalid':
      return invalidRequest([{ parameter: 'body', message: 'is not as long as its Content-Length says' }]);
    case 'entity.verify.failed':
      return invalidRequest([{ parameter: 'body', message: 'was refused' }]);
    default:
      return undefined;
  }
}

const closedConnectionCodes = new Set(['ECONNABORTED', 'ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Whether an error only says the client went away (it closed the connection while its body was
 * read or its answer written): nothing failed on this side, and the request log notes the close.
 */
export function clientWentAway(error: unknown, request: IncomingMessage): boolean {
  const { type, code } = (error ?? {}) as { type?: unknown; code?: unknown };
  if (type === 'request.aborted') return true;
  // The same codes come from the database's sockets: only with this request's own connection gone.
  return typeof code === 'string' && closedConnectionCodes.has(code) && (request.destroyed || request.socket.destroyed);
}
