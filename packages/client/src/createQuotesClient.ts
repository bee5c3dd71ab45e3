import { type Client, createClient, createConfig } from './generated/client/index.js';
import type { Auth } from './generated/core/auth.gen.js';
import * as sdk from './generated/sdk.gen.js';
import type { ListQuotesQuery, RandomQuoteQuery } from './filterQuery.js';
import type { FilterValues, KeyRequest, KeyRequestReceived, Quote, QuotePage, Usage } from './generated/types.gen.js';
import { describeFailure, QuotesNetworkError } from './networkError.js';
import { QuotesProblemError } from './problemError.js';
import { parseRateLimit, type RateLimit } from './rateLimit.js';
import { resilientFetch } from './resilientFetch.js';
import { type RetryOptions, retryPolicy } from './retryPolicy.js';

export interface QuotesClientOptions {
  /** Scheme, host and port only; the `/v1/...` paths come from the contract. */
  baseUrl: string;
  /** Omitting it sends no key at all; the server then answers 401 (`missing-api-key`). */
  apiKey?: string;
  /** How the key travels. The service accepts either, but rejects two different keys. */
  sendKeyAs?: 'x-api-key' | 'bearer';
  /** Sent on every call (e.g. `Prefer` for the Prism mock); per-call headers win. */
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
  /**
   * How long one try may take, headers and body, before it fails with a `QuotesNetworkError`
   * whose `reason` is `timeout`. Default 30,000 ms; 0 for none.
   */
  timeoutMs?: number;
  /**
   * Off by default. `true` (or options) retries 503 and 429 `rate-limited` answers, honouring
   * their `Retry-After`, and failed connections and timeouts, with exponential backoff. Other 4xx
   * answers are never retried: a 429 `allowance-exhausted` asks to wait until the 1st, longer
   * than `maxDelayMs`; its error carries `retryAt`.
   */
  retry?: boolean | RetryOptions;
}

export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A 2xx body together with what else the response said. */
export interface QuotesResult<T> {
  data: T;
  /** Undefined when the response carried no allowance headers (quotes-usage is never counted). */
  rateLimit: RateLimit | undefined;
  response: Response;
}

/** The filter values, and whether the server answered 304 (the client's kept copy is still current). */
export interface FilterValuesResult extends QuotesResult<FilterValues> {
  notModified: boolean;
}

interface Operations<R extends 'data' | 'result'> {
  getRandomQuote(query?: RandomQuoteQuery, options?: CallOptions): Promise<Out<R, Quote>>;
  listQuotes(query?: ListQuotesQuery, options?: CallOptions): Promise<Out<R, QuotePage>>;
  listFilterValues(options?: CallOptions): Promise<R extends 'data' ? FilterValues : FilterValuesResult>;
  getUsage(options?: CallOptions): Promise<Out<R, Usage>>;
  /** Asks for a key (no key needed): the server mails a confirmation link to `request.email`. */
  requestKey(request: KeyRequest, options?: CallOptions): Promise<Out<R, KeyRequestReceived>>;
}
type Out<R extends 'data' | 'result', T> = R extends 'data' ? T : QuotesResult<T>;

/**
 * Every method resolves to the typed 2xx body and throws {@link QuotesProblemError} on any other
 * status. `withMeta` has the same methods resolving to {@link QuotesResult}, for callers that want
 * the allowance headers.
 */
export interface QuotesClient extends Operations<'data'> {
  readonly withMeta: Operations<'result'>;
}

// The generated client leaves `response` undefined when the request never got one (network error).
type SdkOutcome<T> = ({ data: T; error: undefined } | { data: undefined; error: unknown }) & { response?: Response };

async function settle<T>(pending: Promise<SdkOutcome<T>>): Promise<QuotesResult<T>> {
  const outcome = await pending;
  // With throwOnError off, the generated client reports a failed fetch as `error` with no
  // response: resilientFetch already made it a QuotesNetworkError (or the caller's abort).
  if (outcome.response === undefined) throw outcome.error;
  // A 2xx whose body could not be read: the deadline passed mid-body, or the connection broke.
  if (outcome.response.ok && outcome.error !== undefined) throw unreadableBody(outcome.response, outcome.error);
  if (!outcome.response.ok) {
    throw QuotesProblemError.fromResponse(outcome.response, outcome.error);
  }
  return { data: outcome.data as T, rateLimit: parseRateLimit(outcome.response.headers), response: outcome.response };
}

function unreadableBody(response: Response, error: unknown): unknown {
  if (error instanceof Error && error.name === 'AbortError') return error;
  const timedOut = error instanceof Error && error.name === 'TimeoutError';
  return new QuotesNetworkError(
    timedOut ? 'timeout' : 'network',
    `${response.url}: the ${response.status} answer's body could not be read (${describeFailure(error)})`,
    1,
    error,
  );
}

export function createQuotesClient(options: QuotesClientOptions): QuotesClient {
  const { apiKey, sendKeyAs = 'x-api-key' } = options;
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) throw new RangeError('timeoutMs must be a non-negative number');
  const fetch = resilientFetch({
    // Read at call time when not given, so a fetch patched in later (tests, polyfills) is used.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs,
    retry: retryPolicy(options.retry),
  });
  const client: Client = createClient(
    createConfig({
      baseUrl: options.baseUrl,
      // Every 2xx of the contract is JSON; 'auto' would hand back a stream if Content-Type were lost.
      parseAs: 'json',
      fetch,
      ...(options.headers ? { headers: options.headers } : {}),
      // The SDK lists both security schemes; answering for only one of them sends exactly one key.
      auth: (scheme: Auth) => {
        const wanted = sendKeyAs === 'bearer' ? scheme.scheme === 'bearer' : scheme.type === 'apiKey';
        return wanted ? apiKey || undefined : undefined;
      },
    }),
  );

  const request = (call: CallOptions | undefined) => ({
    client,
    ...(call?.headers ? { headers: call.headers } : {}),
    ...(call?.signal ? { signal: call.signal } : {}),
  });

  // The last filter values and their ETag: the next call revalidates them with If-None-Match, and a
  // 304 (still counted, but no body to send) resolves to this copy.
  let keptFilterValues: { etag: string; data: FilterValues } | undefined;
  const listFilterValues = async (call: CallOptions | undefined): Promise<FilterValuesResult> => {
    const callerSetCondition = Object.keys(call?.headers ?? {}).some((name) => name.toLowerCase() === 'if-none-match');
    const kept = keptFilterValues;
    const headers = kept && !callerSetCondition ? { 'If-None-Match': kept.etag, ...call?.headers } : call?.headers;
    const outcome = await sdk.listFilterValues(request({ ...call, ...(headers ? { headers } : {}) }));
    if (outcome.response?.status === 304) {
      const current = callerSetCondition ? undefined : kept;
      if (!current)
        throw new Error(
          'quotes-categories answered 304 Not Modified to an If-None-Match this client did not send: it holds no copy to return; omit the header and the client revalidates by itself',
        );
      return {
        data: current.data,
        rateLimit: parseRateLimit(outcome.response.headers),
        response: outcome.response,
        notModified: true,
      };
    }
    const result = await settle<FilterValues>(Promise.resolve(outcome as SdkOutcome<FilterValues>));
    const etag = result.response.headers.get('etag');
    keptFilterValues = etag ? { etag, data: result.data } : undefined;
    return { ...result, notModified: false };
  };

  const withMeta: Operations<'result'> = {
    getRandomQuote: (query, call) =>
      settle<Quote>(sdk.getRandomQuote({ ...request(call), ...(query ? { query } : {}) })),
    listQuotes: (query, call) => settle<QuotePage>(sdk.listQuotes({ ...request(call), ...(query ? { query } : {}) })),
    listFilterValues,
    getUsage: (call) => settle<Usage>(sdk.getUsage(request(call))),
    requestKey: (body, call) => settle<KeyRequestReceived>(sdk.requestKey({ ...request(call), body })),
  };

  return {
    withMeta,
    getRandomQuote: async (query, call) => (await withMeta.getRandomQuote(query, call)).data,
    listQuotes: async (query, call) => (await withMeta.listQuotes(query, call)).data,
    listFilterValues: async (call) => (await withMeta.listFilterValues(call)).data,
    getUsage: async (call) => (await withMeta.getUsage(call)).data,
    requestKey: async (body, call) => (await withMeta.requestKey(body, call)).data,
  };
}
