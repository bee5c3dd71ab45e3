import type { IncomingHttpHeaders } from 'node:http';
import type { Request } from 'express';
import type { ParameterError } from '../problems.js';
import type { CallerResolution } from './callerAuthentication.js';
import { parseQueryString, screenQuery } from './requestScreening.js';

/** The request as openapi-backend is given it: a plain object, not Express's req (see toolchain notes). */
export interface BackendRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[]>;
}

/**
 * The only headers the contract reads: the two that may carry the key, and If-None-Match.
 * openapi-backend copies and lower-cases every header it is given on every request, so it is
 * given just these (openApiBackend.ts checks the contract names no other).
 */
export const contractHeaders = ['x-api-key', 'authorization', 'if-none-match'] as const;

function contractHeadersOf(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const picked: Record<string, string | string[]> = {};
  for (const name of contractHeaders) {
    const value = headers[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/**
 * One API call on its way through openapi-backend: passed as the extra handler argument, it
 * carries what the stages before the operation found (the caller, the query screening).
 */
export class ApiExchange {
  readonly request: BackendRequest;
  private readonly rawQuery: Map<string, string[]>;
  /** Filled by the screening once the operation is known. */
  screeningErrors: ParameterError[] = [];
  /** The accepted query as text, before any type coercion. */
  acceptedQuery: Record<string, string> = {};
  caller: Promise<CallerResolution> | undefined;

  constructor(
    request: Request,
    readonly requestId: string,
  ) {
    const url = request.originalUrl ?? request.url;
    const queryStart = url.indexOf('?');
    this.rawQuery = parseQueryString(queryStart >= 0 ? url.slice(queryStart + 1) : '');
    this.request = {
      method: request.method,
      path: queryStart >= 0 ? url.slice(0, queryStart) : url,
      query: {},
      headers: contractHeadersOf(request.headers),
    };
  }

  /**
   * Screens the query against the routed operation's declared parameters. An operation without
   * a documented 400 takes no parameters and cannot answer 400, so its query is ignored.
   */
  screen(declared: ReadonlySet<string>, answers400: boolean): void {
    if (!answers400) {
      this.request.query = {};
      return;
    }
    const { accepted, errors } = screenQuery(this.rawQuery, declared);
    this.acceptedQuery = accepted;
    this.screeningErrors = errors;
    // openapi-backend validates the object it was handed, so from here on it sees only what passed.
    this.request.query = { ...accepted };
  }
}
