import type { QuotesClient } from './createQuotesClient.js';
import type { ListQuotesQuery } from './filterQuery.js';
import type { QuoteSummary } from './generated/types.gen.js';
import { QuotesProblemError } from './problemError.js';

/** How long one page waits out `rate-limited` answers in all, by default (decision 0043). */
export const defaultRateLimitWaitMs = 10_000;

export interface IterateQuotesOptions {
  /** Requested page size; the server cuts it to the plan's largest page (`page-size-cut` says so). Default: server's. */
  pageSize?: number;
  /** Where to start. Default 0. */
  offset?: number;
  /**
   * The most calls the walk makes (each page answered is one call the service counts); it then
   * stops, with a `budget-spent` event when there were more pages. Default: no bound.
   */
  maxCalls?: number;
  /**
   * How long one page may wait out `rate-limited` answers in all, each by its `Retry-After`,
   * before the walk stops with a {@link QuotesPagingError}. Default 10,000 ms; 0 never waits.
   */
  rateLimitWaitMs?: number;
  /** Told what the walk met on the way. */
  onEvent?: (event: IterateQuotesEvent) => void;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** What the walk tells `onEvent`. */
export type IterateQuotesEvent =
  /** The server answered fewer quotes a page than asked: the plan's largest page. Told once. */
  | { type: 'page-size-cut'; asked: number; given: number }
  /** The key sent more calls per second (or at once) than its plan allows: the walk waits `waitMs`. */
  | { type: 'rate-limited'; offset: number; waitMs: number }
  /** `maxCalls` calls were made and there are more pages: `nextOffset` resumes the walk. */
  | { type: 'budget-spent'; calls: number; nextOffset: number };

/**
 * The walk stopped before its end: the allowance is used up (`allowance-exhausted`, which comes
 * back only at `retryAt`), or the key stayed rate-limited longer than `rateLimitWaitMs`.
 * `iterateQuotes(client, filters, { offset: error.nextOffset })` resumes where it stopped.
 */
export class QuotesPagingError extends Error {
  override readonly name = 'QuotesPagingError';
  readonly reason: 'allowance-exhausted' | 'rate-limited';
  /** The offset of the first quote not yet given. */
  readonly nextOffset: number;
  /** Calls the walk made (pages answered). */
  readonly calls: number;
  /** When the service takes calls again, from the refusal's `Retry-After`. */
  readonly retryAt: Date | undefined;
  override readonly cause: QuotesProblemError;

  constructor(cause: QuotesProblemError, nextOffset: number, calls: number) {
    const reason = cause.code === 'allowance-exhausted' ? 'allowance-exhausted' : 'rate-limited';
    super(`iterateQuotes stopped at offset ${nextOffset} after ${calls} calls: ${cause.message}`, { cause });
    this.reason = reason;
    this.nextOffset = nextOffset;
    this.calls = calls;
    this.retryAt = cause.retryAt;
    this.cause = cause;
  }
}

function wholeNumber(name: string, value: number | undefined, least: number): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= least)) {
    throw new RangeError(`iterateQuotes: ${name} must be a whole number of at least ${least}, got ${value}`);
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Every quote matching `query`, walking listQuotes page by page. Stops when `has_more` is false,
 * or after `maxCalls` calls. Each page starts where the previous one ended (`offset +
 * quotes.length`), so a cut page size never skips quotes. A `rate-limited` answer is waited out
 * by its `Retry-After` (at most `rateLimitWaitMs` a page); an `allowance-exhausted` one stops the
 * walk with a {@link QuotesPagingError}; any other error is thrown as it came.
 */
export async function* iterateQuotes(
  client: Pick<QuotesClient, 'listQuotes'>,
  query: Omit<ListQuotesQuery, 'limit' | 'offset'> = {},
  options: IterateQuotesOptions = {},
): AsyncGenerator<QuoteSummary, void, undefined> {
  wholeNumber('pageSize', options.pageSize, 1);
  wholeNumber('offset', options.offset, 0);
  wholeNumber('maxCalls', options.maxCalls, 1);
  wholeNumber('rateLimitWaitMs', options.rateLimitWaitMs, 0);
  const waitBound = options.rateLimitWaitMs ?? defaultRateLimitWaitMs;
  const call = {
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  let offset = options.offset ?? 0;
  let calls = 0;
  let cutTold = false;
  for (;;) {
    if (options.maxCalls !== undefined && calls >= options.maxCalls) {
      options.onEvent?.({ type: 'budget-spent', calls, nextOffset: offset });
      return;
    }
    let waited = 0;
    let page: Awaited<ReturnType<QuotesClient['listQuotes']>>;
    for (;;) {
      try {
        page = await client.listQuotes(
          { ...query, ...(options.pageSize !== undefined ? { limit: options.pageSize } : {}), offset },
          call,
        );
        break;
      } catch (error) {
        if (!(error instanceof QuotesProblemError) || error.status !== 429) throw error;
        if (error.code === 'allowance-exhausted') throw new QuotesPagingError(error, offset, calls);
        // rate-limited: its Retry-After is a second or two; one without it is given a second.
        const waitMs = (error.retryAfterSeconds ?? 1) * 1000;
        if (waited + waitMs > waitBound) throw new QuotesPagingError(error, offset, calls);
        options.onEvent?.({ type: 'rate-limited', offset, waitMs });
        await pause(waitMs, options.signal);
        waited += waitMs;
      }
    }
    calls++;
    // Both checks stop an endless loop against a server that ignores `offset` (the Prism mock
    // answers the same example page every time) or claims more while sending nothing.
    if (page.offset !== offset) {
      throw new Error(`listQuotes answered offset ${page.offset} to a request for offset ${offset}`);
    }
    if (page.has_more && page.quotes.length === 0) {
      throw new Error(`listQuotes answered an empty page with has_more at offset ${offset}`);
    }
    if (!cutTold && options.pageSize !== undefined && page.limit < options.pageSize) {
      cutTold = true;
      options.onEvent?.({ type: 'page-size-cut', asked: options.pageSize, given: page.limit });
    }
    yield* page.quotes;
    if (!page.has_more) return;
    offset += page.quotes.length;
  }
}
