import type { ParameterError, Problem, ProblemType } from './generated/types.gen.js';
import { parseRateLimit, parseRetryAfter, type RateLimit } from './rateLimit.js';

/**
 * A problem `type` URI. The contract's values are listed for completion, but any string is
 * accepted: a mock, proxy or newer server can answer with a type this client does not know.
 */
export type QuotesProblemType = ProblemType | (string & {});

/** Any non-2xx answer of the Quote Retrieval Service, as RFC 9457 problem details. */
export class QuotesProblemError extends Error {
  override readonly name = 'QuotesProblemError';
  readonly status: number;
  readonly type: QuotesProblemType;
  readonly title: string;
  readonly detail: string;
  /** For 400: each bad parameter and what is wrong with it. */
  readonly errors: ParameterError[] | undefined;
  /** The server's request id, for support. */
  readonly instance: string | undefined;
  /** Seconds until the allowance resets; set when the response carried `Retry-After` (429). */
  readonly retryAfterSeconds: number | undefined;
  readonly rateLimit: RateLimit | undefined;

  constructor(
    problem: Problem | (Omit<Problem, 'type'> & { type: QuotesProblemType }),
    headers: Headers = new Headers(),
  ) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.status = problem.status;
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.errors = problem.errors;
    this.instance = problem.instance;
    this.retryAfterSeconds = parseRetryAfter(headers);
    this.rateLimit = parseRateLimit(headers);
  }

  /**
   * Builds the error from a failed response and its already-read body. Bodies that are not
   * problem details (a gateway's HTML page, an empty body) still give a usable error, with the
   * RFC 9457 default type `about:blank` and the HTTP status as the truth.
   */
  static fromResponse(response: Response, body: unknown): QuotesProblemError {
    const fields = isRecord(body) ? body : {};
    const text = typeof body === 'string' ? body.trim().slice(0, 500) : '';
    return new QuotesProblemError(
      {
        status: response.status,
        type: typeof fields.type === 'string' ? fields.type : 'about:blank',
        title: typeof fields.title === 'string' ? fields.title : response.statusText || `HTTP ${response.status}`,
        detail: typeof fields.detail === 'string' ? fields.detail : text,
        ...(typeof fields.instance === 'string' ? { instance: fields.instance } : {}),
        ...(Array.isArray(fields.errors) ? { errors: fields.errors.filter(isParameterError) } : {}),
      },
      response.headers,
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isParameterError(value: unknown): value is ParameterError {
  return isRecord(value) && typeof value.parameter === 'string' && typeof value.message === 'string';
}
