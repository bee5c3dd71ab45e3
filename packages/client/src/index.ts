export {
  type CallOptions,
  createQuotesClient,
  type FilterValuesResult,
  type QuotesClient,
  type QuotesClientOptions,
  type QuotesResult,
} from './createQuotesClient.js';
export type { ListQuotesQuery, RandomQuoteQuery, Suggested } from './filterQuery.js';
export {
  Category,
  type CategoryCount,
  Era,
  FaithTradition,
  type FilterValues,
  type KeyRequest,
  type KeyRequestReceived,
  Length,
  Mood,
  type ParameterError,
  Plan,
  type Problem,
  ProblemType,
  type Quote,
  type QuotePage,
  type QuoteSummary,
  type Usage,
} from './generated/types.gen.js';
export { QuotesNetworkError } from './networkError.js';
export {
  type IterateQuotesEvent,
  type IterateQuotesOptions,
  iterateQuotes,
  QuotesPagingError,
} from './paginate.js';
export { QuotesProblemError, type QuotesProblemCode, type QuotesProblemType } from './problemError.js';
export { parseRateLimit, parseRetryAfter, type RateLimit } from './rateLimit.js';
export type { RetryOptions } from './retryPolicy.js';
