import { type ParameterError, type Problem, ProblemType } from './generated/types.gen.js';
import { parseRateLimit, parseRetryAfter, type RateLimit } from './rateLimit.js';

const prefix = 'urn:quotes:problem:';

/**
 * The problem types of the contract, plus RFC 9457's `about:blank` for any answer that is not one
 * of them (a gateway's HTML page, a mock's own problem): a closed union, so a `switch` on it is
 * checked by the compiler, typos and missing cases included.
 */
export type QuotesProblemType = ProblemType | 'about:blank';

/** The short form of a problem type: `plan-limit` for `urn:quotes:problem:plan-limit`; `unknown` for `about:blank`. */
export type QuotesProblemCode = (ProblemType extends `${typeof prefix}${infer Code}` ? Code : never) | 'unknown';

/** The contract's problem types (generated from its enum), for telling them from anything else at run time. */
const knownTypes: ReadonlySet<string> = new Set<string>(Object.values(ProblemType));

function isKnownType(type: string): type is ProblemType {
  return knownTypes.has(type);
}

/** Any non-2xx answer of the Quote Retrieval Service, as RFC 9457 problem details. */
export class QuotesProblemError extends Error {
  override readonly name = 'QuotesProblemError';
  readonly status: number;
  readonly type: QuotesProblemType;
  readonly code: QuotesProblemCode;
  /** The `type` exactly as received, also when it is none of the contract's (then `type` is `about:blank`). */
  readonly rawType: string;
  readonly title: string;
  readonly detail: string;
  /** For 400: each bad parameter and what is wrong with it. */
  readonly errors: ParameterError[] | undefined;
  /** The server's request id, for support. */
  readonly instance: string | undefined;
  /** Seconds the server asked to wait (`Retry-After`: on 429 until the monthly reset, on 503 briefly). */
  readonly retryAfterSeconds: number | undefined;
  /** When trying again makes sense, from `Retry-After`; for a 429 that is the start of next month. */
  readonly retryAt: Date | undefined;
  readonly rateLimit: RateLimit | undefined;

  constructor(
    problem: Omit<Problem, 'type'> & { type: string },
    headers: Headers = new Headers(),
    now: number = Date.now(),
  ) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.status = problem.status;
    this.rawType = problem.type;
    this.type = isKnownType(problem.type) ? problem.type : 'about:blank';
    this.code = this.type === 'about:blank' ? 'unknown' : (this.type.slice(prefix.length) as QuotesProblemCode);
    this.title = problem.title;
    this.detail = problem.detail;
    this.errors = problem.errors;
    this.instance = problem.instance;
    this.retryAfterSeconds = parseRetryAfter(headers, now);
    this.retryAt = this.retryAfterSeconds === undefined ? undefined : new Date(now + this.retryAfterSeconds * 1000);
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
