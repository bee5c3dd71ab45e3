import { type DestinationStream, pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { redactLogLine } from './logRedaction.js';

export type { Logger };

/**
 * Keys never reach a log line: the request log writes no headers, and should headers ever be
 * logged (an error carrying a request, a future debug line), both places a key travels in are
 * censored. Whatever else a line holds passes logRedaction.ts's rule as it is written.
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

/**
 * The fields of an error a log line keeps: what names the failure and where. Anything else an
 * error carries is left out, because libraries attach data to errors: body-parser the whole raw
 * body (e-mail addresses and names of a key request), pg the client and a row's values (`detail`),
 * nodemailer the envelope and its recipients.
 */
const keptErrorFields = new Set([
  'type',
  'message',
  'stack',
  'code',
  'errno',
  'syscall',
  'status',
  'statusCode',
  'severity',
  'routine',
  'constraint',
  'table',
  'column',
  'aggregateErrors',
]);

/** V8's JSON.parse messages quote the text they failed on: `Unexpected token 'x', ..."<text>"... is not valid JSON`. */
const parsedTextExcerpt = /(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON/g;
const withoutExcerpt = (text: string) => text.replace(parsedTextExcerpt, '"[text left out]" is not valid JSON');

function serialiseError(error: Error): object {
  const full = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(full)) {
    if (!keptErrorFields.has(name)) continue;
    if (typeof value === 'string') kept[name] = withoutExcerpt(value);
    else if (typeof value === 'number' || typeof value === 'boolean') kept[name] = value;
    else if (name === 'aggregateErrors' && Array.isArray(value))
      kept[name] = value.slice(0, 5).map((inner) => serialiseKept(inner));
  }
  return kept;
}

/** An inner error (of an AggregateError), already serialised by pino: the same fields. */
function serialiseKept(inner: unknown): unknown {
  if (typeof inner !== 'object' || inner === null) return undefined;
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(inner)) {
    if (keptErrorFields.has(name) && name !== 'aggregateErrors' && typeof value !== 'object')
      kept[name] = typeof value === 'string' ? withoutExcerpt(value) : value;
  }
  return kept;
}

/** An error logged under another name than `err` (`{ cause: error }`) is cut down the same way. */
function errorsKeptShort(line: Record<string, unknown>): Record<string, unknown> {
  let kept = line;
  // for...in: a third of the cost of Object.entries on every line.
  for (const name in line) {
    const value = line[name];
    if (!(value instanceof Error) || name === 'err') continue;
    if (kept === line) kept = { ...line };
    kept[name] = serialiseError(value);
  }
  return kept;
}

interface RequestLine {
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  /** Why a request's connection closed before its answer (requestLog.ts). */
  closed?: string;
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
    ignore: 'pid,hostname,reqId,req,res,responseTime,closed',
    messageFormat: (line: RequestLine & Record<string, unknown>, messageKey: string) =>
      line.req && line.res
        ? `${line.req.method} ${line.req.url} ${line.res.statusCode} ${line.responseTime} ms`
        : line.req && line.closed
          ? `${line.req.method} ${line.req.url} closed (${line.closed}) after ${line.responseTime} ms`
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
    formatters: { log: errorsKeptShort },
    hooks: { streamWrite: redactLogLine },
  };
  if (options.pretty) return pino(settings, terminalStream(options.destination));
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

export const silentLogger: Logger = pino({ level: 'silent' });
