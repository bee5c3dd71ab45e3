import { type DestinationStream, pino, type Logger } from 'pino';

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
  /** Where JSON lines go (default stdout); tests capture them. */
  destination?: DestinationStream;
}

// pg attaches the whole client (connection parameters, statements) to some errors: not log material.
function serialiseError(error: Error): object {
  const { client: _client, ...rest } = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  return rest;
}

export function createLogger(options: LoggerOptions): Logger {
  const settings = {
    level: options.level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: { err: serialiseError },
  };
  if (options.pretty && !options.destination) {
    return pino({
      ...settings,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss' } },
    });
  }
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

export const silentLogger: Logger = pino({ level: 'silent' });
