import { type DestinationStream, pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

/**
 * Keys never reach a log line: the request log writes no headers, and should headers ever be
 * logged (an error carrying a request, a future debug line), both places a key travels in are
 * censored.
 */
export const redactedPaths = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers["x-api-key"]',
  'headers.authorization',
];

export interface LoggerOptions {
  level: string;
  /** Human-readable lines for a terminal; JSON otherwise (and always in production logs). */
  pretty?: boolean;
  /** Where the lines go (default stdout); tests capture them. */
  destination?: DestinationStream;
}

// pg attaches the whole client (connection parameters, statements) to some errors: not log material.
function serialiseError(error: Error): object {
  const { client: _client, ...rest } = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  return rest;
}

interface RequestLine {
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

/**
 * On a terminal a call is one short line (`GET /v1/quotes-random 200 3.1 ms`) rather than its
 * whole JSON object spread over a dozen lines, so the start banner stays in view; the fields the
 * JSON line carries (request id, address, user agent) are left out here only.
 */
function terminalStream(destination?: DestinationStream): DestinationStream {
  return pretty({
    // Synchronous: a line logged before the start banner is printed before it.
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    messageFormat: (line: RequestLine & Record<string, unknown>, messageKey: string) =>
      line.req && line.res
        ? `${line.req.method} ${line.req.url} ${line.res.statusCode} ${line.responseTime} ms`
        : String(line[messageKey] ?? ''),
    // Colour only on the process's own terminal; a captured stream gets plain text.
    ...(destination ? { destination, colorize: false } : {}),
  });
}

export function createLogger(options: LoggerOptions): Logger {
  const settings = {
    level: options.level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: { err: serialiseError },
  };
  if (options.pretty) return pino(settings, terminalStream(options.destination));
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

export const silentLogger: Logger = pino({ level: 'silent' });
